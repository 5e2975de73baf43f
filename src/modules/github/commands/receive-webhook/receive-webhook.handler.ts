import { createHash, randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../../../../common/clock/clock';
import { DomainError, Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, VerificationCompletedEvent } from '../../../../common/events/domain-events';
import { isUuid } from '../../../../common/http/validation';
import { assertWellFormedInput } from '../../../../common/http/well-formed';
import { prUpdated } from '../../github-activity';
import { type ConnectionRow, GithubConnectionsRepository } from '../../github-connections.repository';
import { GithubProvider } from '../../github-provider.service';
import type { GithubWebhookResponse } from '../../github.response';
import { type ObservationRow, ObservationsRepository } from '../../observations.repository';
import { PrLinksRepository } from '../../pr-links.repository';
import { SHA40, verifyGithubSignature } from '../../pr-url';
import { ReceiveWebhookCommand } from './receive-webhook.command';

const EVENTS = new Set(['ping', 'pull_request', 'pull_request_review', 'check_run', 'status', 'workflow_run']);
const DELIVERY = /^[A-Za-z0-9._:-]{1,100}$/;

type J = Record<string, any>;
const str = (v: unknown, max: number): string | null => (typeof v === 'string' && v !== '' ? v.slice(0, max) : null);
const int = (v: unknown): string | null => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? String(v) : null);
const sha = (v: unknown): string | null => (typeof v === 'string' && SHA40.test(v.toLowerCase()) ? v.toLowerCase() : null);
const date = (v: unknown): Date | null => {
  const d = typeof v === 'string' ? new Date(v) : null;
  return d && !Number.isNaN(d.getTime()) ? d : null;
};
const header = (h: ReceiveWebhookCommand['headers'], name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * The delivery's JSON: the body itself (`application/json`), or the `payload` field of a form body
 * (`application/x-www-form-urlencoded`, GitHub's other content type). 400 otherwise.
 */
export function parsePayload(raw: Buffer, contentType: string | undefined): unknown {
  let text = raw.toString('utf8');
  if ((contentType ?? '').split(';')[0].trim().toLowerCase() === 'application/x-www-form-urlencoded') {
    const fields = new URLSearchParams(text);
    const values = fields.getAll('payload');
    if (values.length !== 1) throw Errors.validation('A form-encoded delivery must carry exactly one `payload` field');
    text = values[0];
  }
  try {
    return JSON.parse(text);
  } catch {
    throw Errors.validation('The body is not JSON');
  }
}

/**
 * GitHub webhooks of one connection (`POST /api/webhooks/github/{connectionId}`):
 * 1. the connection is one enabled connection named by its UUID; unknown, disabled or malformed
 *    ids are the same 404 (nothing says which);
 * 2. `X-Hub-Signature-256` is verified over the exact raw body before it is parsed (HMAC-SHA256,
 *    constant-time comparison): 401 `invalid_signature` otherwise; then `X-GitHub-Delivery` is
 *    required (400) and the body must be a JSON object (400), sent as JSON or as the `payload`
 *    field of a form (`application/x-www-form-urlencoded`; the signature covers the form bytes);
 * 3. each delivery id is processed once per connection (a replay answers `duplicate: true` and
 *    changes nothing); events other than ping, pull_request, pull_request_review, check_run,
 *    status and workflow_run answer `skipped: true`;
 * 4. PR state refreshes every link of the PR in the organization (a changed title, state or head
 *    gets a `github_pr.updated` timeline entry per link, by GitHub); reviews, check runs, commit
 *    statuses and workflow runs become observations (an older delivery never overwrites a newer
 *    provider timestamp); a completed workflow run on a linked PR's exact head creates one
 *    `verification.completed` item per issue assignee when the connection's verification mode
 *    is `attention` (off by default: observe only): recorded once per recipient and exact
 *    repository, PR, run attempt and head, it notifies the assignee (VerificationCompletedEvent:
 *    an in-app notification, so the REST heartbeat's attention and the notification ack).
 * Only identifiers, states and canonical URLs are stored: no raw payload, no secret.
 */
@CommandHandler(ReceiveWebhookCommand)
export class ReceiveWebhookHandler implements ICommandHandler<ReceiveWebhookCommand, GithubWebhookResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly connections: GithubConnectionsRepository,
    private readonly provider: GithubProvider,
    private readonly links: PrLinksRepository,
    private readonly observations: ObservationsRepository,
    private readonly events: DomainEvents,
    private readonly clock: Clock,
  ) {}

  async execute({ connectionId, rawBody, headers }: ReceiveWebhookCommand): Promise<GithubWebhookResponse> {
    const connection = isUuid(connectionId) ? await this.connections.enabledById(connectionId) : undefined;
    const secret = connection ? this.provider.open(connection, 'webhook_secret') : null;
    if (!connection || !secret) throw Errors.notFound('Not found');
    const raw = rawBody ?? Buffer.alloc(0);
    if (!verifyGithubSignature(secret, raw, header(headers, 'x-hub-signature-256')))
      throw new DomainError(401, 'invalid_signature', 'X-Hub-Signature-256 does not match the body');
    const deliveryId = header(headers, 'x-github-delivery');
    if (!deliveryId || !DELIVERY.test(deliveryId)) throw Errors.validation('X-GitHub-Delivery is required');
    const event = (header(headers, 'x-github-event') ?? '').slice(0, 100);
    const payload = parsePayload(raw, header(headers, 'content-type'));
    // text the service keeps: well-formed Unicode without NUL (the rule of every JSON route)
    assertWellFormedInput({ params: {}, query: {}, body: payload });
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw Errors.validation('The body must be a JSON object');
    const now = this.clock.now();
    return this.db.transaction(async (m) => {
      if (!(await this.connections.recordDelivery(connection.org_id, connection.id, deliveryId, event || 'unknown', m)))
        return { accepted: true, duplicate: true };
      if (!EVENTS.has(event)) return { accepted: true, duplicate: false, skipped: true };
      await this.apply(connection, event, payload as J, deliveryId, now, m);
      return { accepted: true, duplicate: false };
    });
  }

  private async apply(c: ConnectionRow, event: string, p: J, deliveryId: string, now: Date, m: EntityManager): Promise<void> {
    const fullName = str(p.repository?.full_name, 201);
    const [owner, repo] = fullName?.split('/') ?? [];
    if (!owner || !repo) return;
    const repoKey = `${owner}/${repo}`.toLowerCase();
    const repositoryId = int(p.repository?.id);
    const base = { repo_key: repoKey, repository_id: repositoryId, provider_event_id: deliveryId };
    const record = (o: Omit<ObservationRow, 'observed_at' | 'repo_key' | 'repository_id' | 'provider_event_id'>) =>
      this.observations.upsert(c.org_id, randomUUID(), { ...base, ...o }, now, m);
    const none = { name: null, state: null, conclusion: null, app_id: null, actor_id: null, run_attempt: null, path: null, html_url: null };

    if (event === 'pull_request' && p.pull_request) {
      const pr = p.pull_request as J;
      const n = Number(pr.number);
      if (!Number.isSafeInteger(n) || n <= 0) return;
      const merged = pr.merged === true || !!pr.merged_at;
      const status = merged ? 'merged' : pr.state === 'closed' ? 'closed' : pr.state === 'open' ? (pr.draft ? 'draft' : 'open') : null;
      const head = sha(pr.head?.sha);
      await record({
        ...none,
        kind: 'pull_request',
        pr_number: n,
        head_sha: head,
        external_id: String(n),
        state: status,
        html_url: str(pr.html_url, 400),
        provider_updated_at: date(pr.updated_at),
      });
      const changes = await this.links.applyMetadata(
        c.org_id,
        owner,
        repo,
        n,
        {
          pr_id: int(pr.id) ? Number(pr.id) : null,
          github_repository_id: repositoryId ? Number(repositoryId) : null,
          pr_title: str(pr.title, 1000) ?? undefined,
          pr_status: status ?? undefined,
          head_sha: head,
          base_ref: str(pr.base?.ref, 255),
          base_sha: sha(pr.base?.sha),
        },
        now,
        m,
      );
      await this.events.stage(m, ...prUpdated(c.org_id, changes));
    } else if (event === 'pull_request_review' && p.review && p.pull_request) {
      const r = p.review as J;
      const id = int(r.id);
      const n = Number(p.pull_request.number);
      if (!id || !Number.isSafeInteger(n)) return;
      const state = p.action === 'dismissed' ? 'DISMISSED' : (str(r.state, 40)?.toUpperCase() ?? null);
      await record({
        ...none,
        kind: 'review',
        pr_number: n,
        head_sha: sha(r.commit_id),
        external_id: id,
        name: str(r.user?.login, 255),
        actor_id: int(r.user?.id),
        state,
        html_url: str(r.html_url, 400),
        provider_updated_at: date(r.submitted_at),
      });
    } else if (event === 'check_run' && p.check_run) {
      const r = p.check_run as J;
      const id = int(r.id);
      if (!id) return;
      await record({
        ...none,
        kind: 'check_run',
        pr_number: null,
        head_sha: sha(r.head_sha),
        external_id: id,
        name: str(r.name, 255),
        state: str(r.status, 40),
        conclusion: str(r.conclusion, 40),
        app_id: int(r.app?.id),
        html_url: str(r.html_url, 400),
        provider_updated_at: date(r.completed_at) ?? date(r.started_at),
      });
    } else if (event === 'status') {
      const head = sha(p.sha);
      const context = str(p.context, 255);
      if (!head || !context) return;
      await record({
        ...none,
        kind: 'status',
        pr_number: null,
        head_sha: head,
        external_id: createHash('sha256').update(`${head}\u0000${context}`).digest('hex'),
        name: context,
        state: str(p.state, 40),
        provider_updated_at: date(p.updated_at),
      });
    } else if (event === 'workflow_run' && p.workflow_run) {
      const w = p.workflow_run as J;
      const id = int(w.id);
      const attempt = Number.isSafeInteger(w.run_attempt) && w.run_attempt > 0 ? (w.run_attempt as number) : 1;
      const head = sha(w.head_sha);
      if (!id) return;
      await record({
        ...none,
        kind: 'workflow_run',
        pr_number: null,
        head_sha: head,
        external_id: `${id}:${attempt}`,
        name: str(w.name, 255),
        state: str(w.status, 40),
        conclusion: str(w.conclusion, 40),
        run_attempt: attempt,
        path: str(w.path, 255),
        html_url: str(w.html_url, 400),
        provider_updated_at: date(w.updated_at),
      });
      if (c.verification_mode === 'attention' && p.action === 'completed' && w.status === 'completed' && head) {
        const runUrl = `https://github.com/${owner}/${repo}/actions/runs/${id}/attempts/${attempt}`;
        const numbers = Array.isArray(w.pull_requests)
          ? w.pull_requests.map((x: J) => Number(x?.number)).filter((x: number) => Number.isSafeInteger(x) && x > 0)
          : [];
        for (const n of [...new Set<number>(numbers)].slice(0, 20)) {
          for (const link of await this.links.linksOfPr(c.org_id, owner, repo, n, m)) {
            if (link.head_sha !== head) continue;
            for (const member of link.assignee_ids ?? []) {
              const item = {
                id: randomUUID(),
                recipient_member_id: member,
                issue_id: link.issue_id,
                repo_key: repoKey,
                repository_id: repositoryId,
                pr_number: n,
                run_id: id,
                run_attempt: attempt,
                head_sha: head,
                workflow_name: str(w.name, 255),
                conclusion: str(w.conclusion, 40) ?? 'unknown',
                run_url: runUrl,
                verification_event_id: deliveryId,
              };
              // once per recipient and exact identity: a redelivery or a second delivery of the same run attempt adds nothing
              if (!(await this.observations.insertVerification(c.org_id, item, now, m))) continue;
              const passed = item.conclusion === 'success' || item.conclusion === 'neutral';
              await this.events.stage(
                m,
                new VerificationCompletedEvent(
                  c.org_id,
                  item.id,
                  member,
                  link.issue_id,
                  link.project_id,
                  `Workflow ${item.workflow_name ? `"${item.workflow_name}"` : 'run'} ${item.conclusion} on ${repoKey}#${n}`.slice(0, 1000),
                  passed,
                  {
                    verificationEventId: deliveryId,
                    repository: repoKey,
                    repository_id: repositoryId === null ? null : Number(repositoryId),
                    pull_request: n,
                    workflow_run_id: Number(id),
                    run_attempt: attempt,
                    head_sha: head,
                    workflow: item.workflow_name,
                    conclusion: item.conclusion,
                    run_url: runUrl,
                    next_action: passed ? 'Review the verified result and continue the delivery' : 'Inspect the failed workflow run and fix the change',
                  },
                ),
              );
            }
          }
        }
      }
    }
  }
}
