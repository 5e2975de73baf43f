import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { ConnectionSecrets } from '../../connection-secrets';
import { toConnectionResponse } from '../../deployments.mapper';
import { DeploymentsRepository } from '../../deployments.repository';
import type { DeploymentConnectionEnvelope } from '../../deployments.response';
import { type ProviderFailure, VercelApiClient } from '../../vercel-api.client';
import { CreateConnectionCommand } from './create-connection.command';

/** 422 of a connection the provider did not confirm (the provider's own answer is never shown). */
const REFUSALS: Record<ProviderFailure | 'project_mismatch', [string, string]> = {
  unauthorized: ['provider_token_invalid', 'The provider refused the token'],
  not_found: ['provider_project_not_found', 'The provider does not know this project for this team and token'],
  project_mismatch: ['provider_project_not_found', 'The provider does not know this project for this team and token'],
  unavailable: ['provider_unavailable', 'The provider could not be reached to validate the connection; try again'],
  invalid_response: ['provider_unavailable', 'The provider gave no usable answer to validate the connection; try again'],
};

/**
 * Owners and admins connect a Vercel project: the token, team and project are validated live
 * against the provider (GET /v9/projects/{id}) before anything is stored; the token and signing
 * secret are sealed at rest and never returned.
 */
@CommandHandler(CreateConnectionCommand)
export class CreateConnectionHandler implements ICommandHandler<CreateConnectionCommand, DeploymentConnectionEnvelope> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly repo: DeploymentsRepository,
    private readonly secrets: ConnectionSecrets,
    private readonly vercel: VercelApiClient,
  ) {}

  async execute({ actor, dto }: CreateConnectionCommand): Promise<DeploymentConnectionEnvelope> {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage deployment connections');
    const teamId = dto.team_id ?? null;
    const r = await this.vercel.project(dto.token, dto.project_id, teamId);
    let failure: ProviderFailure | 'project_mismatch' | null = r.ok ? null : r.failure;
    if (r.ok && (r.body.id !== dto.project_id || (teamId !== null && r.body.accountId !== null && r.body.accountId !== teamId))) failure = 'project_mismatch';
    if (failure) {
      const [code, message] = REFUSALS[failure];
      throw Errors.unprocessable(message, code);
    }
    const id = randomUUID();
    const row = await this.repo.insertConnection({
      orgId: actor.orgId,
      id,
      teamId,
      projectId: dto.project_id,
      projectName: r.ok ? r.body.name : null,
      tokenSealed: this.secrets.seal(actor.orgId, id, 'token', dto.token),
      webhookSecretSealed: this.secrets.seal(actor.orgId, id, 'webhook_secret', dto.webhook_secret),
      createdByMemberId: actor.memberId,
    });
    if (!row) throw Errors.conflict('The connection could not be stored; retry', 'conflict');
    return { connection: toConnectionResponse(row) };
  }
}
