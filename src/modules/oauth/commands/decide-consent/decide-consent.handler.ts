import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DomainError, Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { ManageableAgents } from '../../manageable-agents.service';
import { OAuthRepository } from '../../oauth.repository';
import { CODE_TTL_SECONDS, hashSecret, newSecret } from '../../oauth-tokens';
import { DecideConsentCommand } from './decide-consent.command';

const MAX_AGENTS = 20;

/**
 * Approve: a connection (grant) for the human, the client and the resource, with the chosen agents
 * (each one the human may manage now, else 404 as for an unknown agent), and a single-use code
 * (60 s) sent back to the client's redirect URI with `state` and `iss`. Deny: `error=access_denied`.
 * The request must be the human's own (else 404), pending (409 `authorization_closed`) and fresh
 * (409 `authorization_expired`); the decision and the request's closing commit together.
 */
@CommandHandler(DecideConsentCommand)
export class DecideConsentHandler implements ICommandHandler<DecideConsentCommand, { location: string }> {
  constructor(
    private readonly db: DataSource,
    private readonly repo: OAuthRepository,
    private readonly manageable: ManageableAgents,
  ) {}

  async execute({ userId, dto, issuer }: DecideConsentCommand): Promise<{ location: string }> {
    if (!isUuid(dto.authorization_id)) throw Errors.validation('authorization_id must be the UUID from the authorization request');
    if (typeof dto.approve !== 'boolean') throw Errors.validation('approve must be true or false');
    let chosen: Array<{ id: string; orgId: string }> = [];
    if (dto.approve) {
      const ids = dto.agent_ids;
      if (!Array.isArray(ids) || ids.length < 1 || ids.length > MAX_AGENTS || !ids.every(isUuid)) {
        throw Errors.validation(`agent_ids must list 1 to ${MAX_AGENTS} agent ids`);
      }
      const allowed = new Map((await this.manageable.of(userId)).map((a) => [a.id, a.organization.id]));
      chosen = [...new Set(ids.map((i) => i.toLowerCase()))].map((id) => {
        const orgId = allowed.get(id);
        if (!orgId) throw Errors.notFound('Agent not found');
        return { id, orgId };
      });
    } else if (dto.agent_ids !== undefined) {
      throw Errors.validation('agent_ids applies to an approval only');
    }
    return this.db.transaction(async (m) => {
      const req = await this.repo.lockRequest(dto.authorization_id.toLowerCase(), userId, m);
      if (!req) throw Errors.notFound('Authorization request not found');
      if (req.status !== 'pending') throw new DomainError(409, 'authorization_closed', 'This authorization request was already decided');
      if (req.expired) throw new DomainError(409, 'authorization_expired', 'This authorization request expired; start again from the client');
      const u = new URL(req.redirect_uri);
      if (!dto.approve) {
        await this.repo.closeRequest(req.id, 'denied', m);
        u.searchParams.set('error', 'access_denied');
        u.searchParams.set('error_description', 'The user denied the request');
      } else {
        const grantId = randomUUID();
        await this.repo.insertGrant({ id: grantId, userId, clientId: req.client_id, resource: req.resource, scope: req.scope }, m);
        for (const a of chosen) await this.repo.insertGrantAgent({ orgId: a.orgId, id: randomUUID(), grantId, memberId: a.id }, m);
        const code = newSecret();
        await this.repo.insertCode(
          {
            hash: hashSecret(code),
            grantId,
            clientId: req.client_id,
            redirectUri: req.redirect_uri,
            codeChallenge: req.code_challenge,
            resource: req.resource,
          },
          CODE_TTL_SECONDS,
          m,
        );
        await this.repo.closeRequest(req.id, 'approved', m);
        u.searchParams.set('code', code);
      }
      if (req.state !== null) u.searchParams.set('state', req.state);
      u.searchParams.set('iss', issuer);
      return { location: u.toString() };
    });
  }
}
