import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { assertWellFormedInput } from '../../../../common/http/well-formed';
import { TxRunner } from '../../../../database/tx-runner';
import { ConnectionSecrets } from '../../connection-secrets';
import { type ConnectionRow, DeploymentsRepository, type Observation } from '../../deployments.repository';
import type { DeploymentCallbackAccepted, DeploymentCallbackSkipped } from '../../deployments.response';
import { type ProviderFailure, type VercelDeployment, VercelApiClient } from '../../vercel-api.client';
import { verifyVercelSignature } from '../../vercel-signature';
import { ReceiveVercelEventCommand } from './receive-vercel-event.command';

/** The deployment events of interface.md "Inbound deployment-provider events"; every other signed type is skipped. */
export const DEPLOYMENT_EVENTS: readonly string[] = [
  'deployment.created',
  'deployment.ready',
  'deployment.succeeded',
  'deployment.error',
  'deployment.canceled',
  'deployment.promoted',
];

/** Errors of the callback are `{ error: "<safe_code>" }` (plus the same `code`). */
const refuse = (status: number, code: string) => new DomainError(status, code, code);

const ID_RE = /^[A-Za-z0-9_.:-]{1,128}$/;
const idOf = (v: unknown): string | null =>
  typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string' && ID_RE.test((v as { id: string }).id)
    ? (v as { id: string }).id
    : null;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const FAILURE_CODES: Record<ProviderFailure, string> = {
  unauthorized: 'provider_unauthorized',
  not_found: 'deployment_not_found',
  unavailable: 'provider_unavailable',
  invalid_response: 'provider_unavailable',
};

/** The event's own time when it is a plausible epoch-milliseconds value, else now. */
function eventTime(v: unknown): Date {
  const now = Date.now();
  return typeof v === 'number' && Number.isFinite(v) && v > now - 366 * 86_400_000 && v < now + 3_600_000 ? new Date(v) : new Date(now);
}

/**
 * `POST /api/webhooks/vercel/{connectionId}`, in this order: the connection (an enabled one by its
 * opaque UUID, else 404); the HMAC-SHA1 signature over the raw body (401 `invalid_signature`)
 * before any parsing; the JSON (400 `invalid_payload`); the type (others `{ skipped: true }`);
 * the signed team and project against the connection (422 `connection_mismatch`); then the signed
 * deployment id against the provider's authenticated answer. The observation (event id, type,
 * deployment id, outcome) and the deployment reference with the provider's snapshot commit in one
 * transaction before the answer; a replay of an event id is `duplicate: true` and still applies the
 * newer authenticated snapshot. `complete: false` with a safe `code` when the provider could not
 * confirm the identity or the production state. Nothing raw (payload, credential, provider body)
 * is stored or logged.
 */
@CommandHandler(ReceiveVercelEventCommand)
export class ReceiveVercelEventHandler implements ICommandHandler<ReceiveVercelEventCommand, DeploymentCallbackAccepted | DeploymentCallbackSkipped> {
  constructor(
    private readonly tx: TxRunner,
    private readonly repo: DeploymentsRepository,
    private readonly secrets: ConnectionSecrets,
    private readonly vercel: VercelApiClient,
  ) {}

  async execute({ connectionId, raw, signature }: ReceiveVercelEventCommand): Promise<DeploymentCallbackAccepted | DeploymentCallbackSkipped> {
    if (!isUuid(connectionId)) throw refuse(404, 'not_found');
    const conn = await this.repo.enabledConnectionById(connectionId.toLowerCase());
    if (!conn) throw refuse(404, 'not_found');
    const secret = this.secrets.open(conn.org_id, conn.id, 'webhook_secret', conn.webhook_secret_sealed);
    if (secret === null || !verifyVercelSignature(secret, raw, signature)) throw refuse(401, 'invalid_signature');

    let event: unknown;
    try {
      event = JSON.parse(raw.toString('utf8'));
      assertWellFormedInput({ params: {}, query: {}, body: event });
    } catch {
      throw refuse(400, 'invalid_payload');
    }
    if (!isObject(event) || typeof event.type !== 'string') throw refuse(400, 'invalid_payload');
    if (!DEPLOYMENT_EVENTS.includes(event.type)) return { skipped: true };
    const payload = isObject(event.payload) ? event.payload : {};
    const eventId = typeof event.id === 'string' && ID_RE.test(event.id) ? event.id : null;
    const deploymentId = idOf(payload.deployment);
    const projectId = idOf(payload.project);
    const teamId = idOf(payload.team);
    if (!eventId || !deploymentId || !projectId) throw refuse(400, 'invalid_payload');
    if (projectId !== conn.project_id || (conn.team_id !== null && teamId !== conn.team_id)) throw refuse(422, 'connection_mismatch');

    const observation = await this.observe(conn, event.type, eventId, deploymentId, eventTime(event.createdAt));
    const outcome = await this.tx.run((m) => this.repo.record(observation, m));
    return { accepted: true, duplicate: outcome.duplicate, complete: outcome.complete, code: outcome.complete ? null : outcome.code };
  }

  /** Asks the provider, with the connection's token, what this deployment is; judges the signed ids against it. */
  private async observe(conn: ConnectionRow, type: string, eventId: string, deploymentId: string, eventAt: Date): Promise<Observation> {
    const base = { orgId: conn.org_id, connectionId: conn.id, eventId, eventType: type, deploymentId, projectId: conn.project_id, eventAt };
    const token = this.secrets.open(conn.org_id, conn.id, 'token', conn.token_sealed);
    if (token === null) return { ...base, complete: false, code: 'provider_unauthorized', snapshot: null };
    const r = await this.vercel.deployment(token, deploymentId, conn.team_id);
    if (!r.ok) return { ...base, complete: false, code: FAILURE_CODES[r.failure], snapshot: null };
    if (!this.sameIdentity(conn, deploymentId, r.body)) return { ...base, complete: false, code: 'identity_mismatch', snapshot: null };
    const d = r.body;
    const production = d.target === 'production' && d.readySubstate !== 'STAGED';
    const snapshot = { environment: d.target ?? 'preview', readyState: d.readyState, production, url: d.url };
    if (type === 'deployment.promoted' && !production) return { ...base, complete: false, code: 'production_unconfirmed', snapshot };
    return { ...base, complete: true, code: null, snapshot };
  }

  private sameIdentity(conn: ConnectionRow, deploymentId: string, d: VercelDeployment): boolean {
    return d.id === deploymentId && d.projectId === conn.project_id && (conn.team_id === null || d.teamId === conn.team_id);
  }
}
