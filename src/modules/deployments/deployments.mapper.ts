import type { ConnectionRow, DeploymentRow } from './deployments.repository';
import type { DeploymentConnectionResponse, DeploymentResponse } from './deployments.response';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function toConnectionResponse(r: ConnectionRow): DeploymentConnectionResponse {
  return {
    id: r.id,
    provider: r.provider,
    team_id: r.team_id,
    project_id: r.project_id,
    project_name: r.project_name,
    enabled: r.enabled,
    token_configured: true,
    webhook_secret_configured: true,
    webhook_path: `/api/webhooks/${r.provider}/${r.id}`,
    created_by_member_id: r.created_by_member_id,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function toDeploymentResponse(r: DeploymentRow): DeploymentResponse {
  return {
    deployment_id: r.deployment_id,
    project_id: r.project_id,
    last_event_type: r.last_event_type,
    last_event_at: r.last_event_at.toISOString(),
    environment: r.environment,
    ready_state: r.ready_state,
    production: r.production,
    url: r.url,
    verified_at: iso(r.verified_at),
  };
}
