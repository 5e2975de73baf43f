/** A deployment-provider connection: credentials are write-only and never returned. */
export class DeploymentConnectionResponse {
  id: string;
  /** `vercel` */
  provider: 'vercel';
  /** The Vercel team id (null: a personal account) */
  team_id: string | null;
  /** The Vercel project id */
  project_id: string;
  /** The project's name as the provider reported it when the connection was validated */
  project_name: string | null;
  enabled: boolean;
  /** Always true: a token is stored (sealed), never shown */
  token_configured: boolean;
  /** Always true: a signing secret is stored (sealed), never shown */
  webhook_secret_configured: boolean;
  /** Where the provider must send its signed callbacks (path on this service) */
  webhook_path: string;
  created_by_member_id: string;
  created_at: string;
  updated_at: string;
}
export class DeploymentConnectionEnvelope {
  connection: DeploymentConnectionResponse;
}
export class DeploymentConnectionListResponse {
  connections: DeploymentConnectionResponse[];
}

/** What the authenticated callbacks established about one deployment (no raw payload). */
export class DeploymentResponse {
  /** The provider's deployment id */
  deployment_id: string;
  project_id: string;
  /** The latest deployment event type observed */
  last_event_type: string;
  last_event_at: string;
  /** `production`, `preview` or the provider's custom environment, from the provider's own answer (null: not verified yet) */
  environment: string | null;
  /** The provider's `readyState` (e.g. `READY`, `ERROR`, `CANCELED`; null: not verified yet) */
  ready_state: string | null;
  /** True when the provider confirmed the deployment serves production */
  production: boolean;
  /** The deployment's hostname as the provider reported it */
  url: string | null;
  /** When the provider last confirmed this snapshot (null: never) */
  verified_at: string | null;
}
export class DeploymentConnectionDetailResponse extends DeploymentConnectionResponse {
  /** The newest deployments observed through this connection (at most 100) */
  deployments: DeploymentResponse[];
}
export class DeploymentConnectionDetailEnvelope {
  connection: DeploymentConnectionDetailResponse;
}

/** A signed callback durably recorded (or a replay of one). */
export class DeploymentCallbackAccepted {
  /** Always true */
  accepted: boolean;
  /** True when this event id was already recorded (a newer authenticated snapshot may still have been applied) */
  duplicate: boolean;
  /** False when the observation is durable but the provider did not confirm its identity or production state */
  complete: boolean;
  /** Null when complete; otherwise `provider_unavailable`, `provider_unauthorized`, `deployment_not_found`, `identity_mismatch` or `production_unconfirmed` */
  code: string | null;
}
/** A signed event of a type this service does not process. */
export class DeploymentCallbackSkipped {
  /** Always true */
  skipped: boolean;
}
export class DeploymentSuccessResponse {
  /** Always true */
  success: boolean;
}
