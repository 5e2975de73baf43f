import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/auth/principal';
import { Clock } from '../../common/clock/clock';
import type { BesideRead } from '../../common/cache/data-versions.repository';
import type { VersionSubject } from '../../common/cache/data-versions.service';
import { DomainError, Errors } from '../../common/errors/domain-error';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import {
  HEARTBEAT,
  HEARTBEAT_ATTENTION,
  HEARTBEAT_CONTEXT,
  HEARTBEAT_OFF_TRACK,
  HEARTBEAT_POLICY,
  HEARTBEAT_STRATEGY,
  HEARTBEAT_WORK,
  ReadModels,
} from '../../common/cache/read-models';
import { type Briefing, compactAttention, fullAttention, HeartbeatComposer, signalView } from './heartbeat-composer.service';
import { HeartbeatCursorCodec } from './heartbeat-cursor';
import { defaultPolicy, type HeartbeatPolicy } from './heartbeat-policy';
import { HeartbeatStateRepository } from './heartbeat-state.repository';
import type { Visibility } from './heartbeat.repository';

/**
 * Where a heartbeat is read: `rest` (REST and CLI) or `mcp` (the MCP tool, which leaves workflow
 * `verification.completed` attention out: interface.md "Heartbeat").
 */
export type HeartbeatSurface = 'rest' | 'mcp';

export const MAX_BYTES = 16_384;
export const MAX_ITEMS = 25;
/** An acknowledged baseline older than this is expired: `since` then answers afresh with `delta.reset_required`. */
export const BASELINE_TTL_MS = 7 * 86_400_000;

/**
 * A kept heartbeat (read model HEARTBEAT): the briefing, and for view=full its response, for the
 * compact view its items and run keys and the first pages made from them so far (by max_bytes).
 * Shared between requests: never mutated except to add a first page.
 */
interface Kept {
  weight: number;
  briefing: Briefing;
  body?: Record<string, unknown>;
  items: Item[];
  runKeys: Record<string, string>;
  pages: Map<number, { body: Record<string, unknown>; remaining: unknown[]; run: string }>;
  /** The same heartbeat without workflow verification attention (the MCP tool's), made once. */
  mcp?: Kept;
}

const VERIFICATION = 'verification.completed';
const isVerificationItem = (i: Item) => i.kind === 'attention' && i.data.event_type === VERIFICATION;

interface Item {
  kind: 'execution_resolved' | 'execution_open' | 'attention' | 'signal';
  key: string;
  fp: string;
  data: Record<string, unknown>;
}

const fingerprint = (d: unknown) => createHash('sha256').update(JSON.stringify(d)).digest('base64url').slice(0, 16);
const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), 'utf8');

export interface HeartbeatQueryInput {
  view: 'compact' | 'full';
  cursor?: string;
  since?: string;
  maxBytes: number;
}

/** Parses the heartbeat's query: unknown parameters and bad values are 400. */
export function parseHeartbeatQuery(q: Record<string, unknown>): HeartbeatQueryInput {
  for (const k of Object.keys(q))
    if (!['view', 'cursor', 'since', 'max_bytes'].includes(k)) throw Errors.validation(`${k} is not a heartbeat parameter (view, cursor, since, max_bytes)`);
  for (const [k, v] of Object.entries(q)) if (typeof v !== 'string') throw Errors.validation(`${k} must be given once`);
  const view = (q.view as string | undefined) ?? 'compact';
  if (view !== 'compact' && view !== 'full') throw Errors.validation('view must be compact or full');
  let maxBytes = MAX_BYTES;
  if (q.max_bytes !== undefined) {
    if (!/^[0-9]{1,6}$/.test(q.max_bytes as string)) throw Errors.validation(`max_bytes must be an integer from 1 to ${MAX_BYTES}`);
    maxBytes = Number(q.max_bytes);
    if (maxBytes < 1 || maxBytes > MAX_BYTES) throw Errors.validation(`max_bytes must be an integer from 1 to ${MAX_BYTES}`);
  }
  const cursor = q.cursor as string | undefined;
  const since = q.since as string | undefined;
  if (view === 'full' && (cursor !== undefined || since !== undefined)) throw Errors.validation('view=full cannot be combined with since or cursor');
  if (cursor !== undefined && since !== undefined)
    throw Errors.validation('Send either cursor (the next page) or since (changes after an acknowledged run), not both');
  if (cursor === '' || since === '') throw Errors.validation('Invalid cursor');
  return { view, cursor, since, maxBytes };
}

const stale = () => new DomainError(409, 'heartbeat_cursor_stale', 'This heartbeat cursor is no longer current: restart without cursor or since');
const tooSmall = () =>
  new DomainError(413, 'heartbeat_budget_too_small', 'max_bytes is too small for the mandatory envelope and one record: retry larger or omit it');

/**
 * The heartbeat use cases: the compact envelope and its paging (cursors, acknowledgement, since),
 * the legacy full view, and previews. See HeartbeatModule for the rules.
 */
@Injectable()
export class HeartbeatService {
  constructor(
    private readonly composer: HeartbeatComposer,
    private readonly state: HeartbeatStateRepository,
    private readonly codec: HeartbeatCursorCodec,
    private readonly clock: Clock,
    private readonly access: AccessPolicyService,
    private readonly readModels: ReadModels,
  ) {}

  /** What the caller reads now (decided per request, before any kept result is used: it is part of every key). */
  private async visibility(actor: Actor): Promise<Visibility> {
    const readable = await this.access.readableProjects(actor);
    const projectless = (await this.access.issueLevel(actor, null)) !== null;
    return { readable: readable === 'all' ? null : [...readable].sort(), projectless };
  }

  /**
   * The caller's heartbeat under its saved policy (null) or a draft (previews): kept (read models
   * HEARTBEAT and HEARTBEAT_CONTEXT, see read-models.ts) or computed. A draft is never kept.
   */
  private async kept(actor: Actor, policy: HeartbeatPolicy | null, full: boolean): Promise<Kept> {
    return (await this.keptWith(actor, policy, full)).kept;
  }

  /** `kept`, and the caller's `beside` read made with the versions (one statement: see ReadModels.serveWith). */
  private async keptWith(actor: Actor, policy: HeartbeatPolicy | null, full: boolean, beside?: BesideRead): Promise<{ kept: Kept; beside: string | null }> {
    const v = await this.visibility(actor);
    const readableKey = v.readable === null ? 'all' : createHash('sha256').update(v.readable.join(',')).digest('base64url');
    const vis = `${readableKey}|${v.projectless ? 'p' : '-'}`;
    const view = full ? 'full' : 'compact';
    // whose subject versions the kept parts versioned by subject are trusted under: the caller's readable projects and its own attention
    const subject: VersionSubject = { readable: v.readable, projectless: v.projectless, member: actor.memberId };
    const compute = async (policyOf: () => Promise<HeartbeatPolicy>): Promise<Kept> => {
      const parts = {
        work: () => this.readModels.serve(HEARTBEAT_WORK, actor.orgId, 'all', () => this.composer.work(actor.orgId)),
        // goals and KPIs read `readable` only (projectless work does not change them)
        strategy: () => this.readModels.serve(HEARTBEAT_STRATEGY, actor.orgId, readableKey, () => this.composer.strategy(actor.orgId, v.readable)),
      };
      // the context, the saved policy and the caller's own reads together: the own reads start as
      // soon as the (kept) policy is known, beside the context's statements (one round trip less)
      const policyP = policyOf();
      const kept = {
        attention: (p: HeartbeatPolicy) => () =>
          this.readModels.serve(
            HEARTBEAT_ATTENTION,
            actor.orgId,
            `${actor.memberId}|${vis}|${p.sections.attention ? 'n' : '-'}`,
            () => this.composer.attention(actor, v, p.sections.attention),
            subject,
          ),
        offTrack: () => this.readModels.serve(HEARTBEAT_OFF_TRACK, actor.orgId, readableKey, () => this.composer.offTrack(actor.orgId, v.readable), subject),
      };
      const ownP = policyP.then((p) => this.composer.own(actor, p, v, { attention: kept.attention(p), offTrack: kept.offTrack }));
      ownP.catch(() => undefined); // awaited below; a failure of the context first must not leave it unhandled
      const [p, ctx, own] = await Promise.all([
        policyP,
        this.readModels.serve(HEARTBEAT_CONTEXT, actor.orgId, `${vis}|${view}`, () => this.composer.context(actor.orgId, v, full, parts), subject),
        ownP,
      ]);
      const b = this.composer.compose(actor, p, full, v, ctx, own);
      return full ? this.keptFull(b) : this.keptCompact(b);
    };
    if (policy) {
      const [kept, b] = await Promise.all([compute(() => Promise.resolve(policy)), beside ? this.readModels.besideAlone(actor.orgId, beside) : null]);
      return { kept, beside: b };
    }
    // everything the briefing depends on besides the versioned data: who (member, role-derived flags, name) and what they read
    const key = [actor.memberId, actor.memberType, actor.agentScope ?? '-', actor.isOwnerOrAdmin ? 'admin' : '-', actor.displayName, vis, view].join('\u0000');
    const r = await this.readModels.serveWith(HEARTBEAT, actor.orgId, key, () => compute(() => this.keptPolicyOf(actor)), subject, beside);
    return { kept: r.result, beside: r.beside };
  }

  private keptFull(b: Briefing): Kept {
    const body = {
      agent: b.agent,
      timestamp: b.now.toISOString(),
      ...b.full,
      signals: b.signals.map((s) => signalView(s, false)),
      attention_items: b.attention.slice(0, 50).map(fullAttention),
      attention_summary: b.summary,
      recommended_action: b.recommended,
      execution_attention: b.execution,
    };
    const full = b.full as Record<string, unknown[]>;
    const weight = 1 + b.signals.length + b.attention.length + Object.values(full).reduce((n, xs) => n + JSON.stringify(xs).length / 1000, 0);
    return { weight: Math.ceil(weight), briefing: b, body, items: [], runKeys: {}, pages: new Map() };
  }

  private keptCompact(b: Briefing): Kept {
    const items = this.items(b);
    return {
      weight: 1 + items.length,
      briefing: b,
      items,
      runKeys: Object.fromEntries(items.map((i) => [i.key, i.fp])),
      pages: new Map(),
    };
  }

  /** The caller's saved policy (agents), or the default (humans). Saved stale ids stay: they fail closed. */
  async policyOf(actor: Actor): Promise<HeartbeatPolicy> {
    if (actor.memberType !== 'agent') return defaultPolicy();
    return (await this.state.policy(actor.orgId, actor.memberId)) ?? defaultPolicy();
  }

  /** policyOf, kept per agent under the 'heartbeat' version (read model HEARTBEAT_POLICY): issue writes keep it. */
  private keptPolicyOf(actor: Actor): Promise<HeartbeatPolicy> {
    if (actor.memberType !== 'agent') return Promise.resolve(defaultPolicy());
    return this.readModels.serve(HEARTBEAT_POLICY, actor.orgId, actor.memberId, () => this.policyOf(actor));
  }

  async heartbeat(actor: Actor, q: HeartbeatQueryInput, surface: HeartbeatSurface = 'rest'): Promise<Record<string, unknown>> {
    if (q.view === 'full') return surface === 'mcp' ? this.withoutVerification(await this.kept(actor, null, true)).body! : this.full(actor, null);
    if (q.cursor !== undefined) return this.nextPage(actor, q, surface);
    return this.fresh(actor, null, q, true, surface);
  }

  /**
   * A kept heartbeat without `verification.completed` attention (items, counts and summary), for
   * the MCP tool: derived once per kept result. (The attention list is the briefing's bounded
   * one, so with many unread verifications the MCP page may hold fewer notifications than exist.)
   */
  private withoutVerification(k: Kept): Kept {
    if (k.mcp) return k.mcp;
    const b = k.briefing;
    const hidden = b.summary.by_type[VERIFICATION] ?? 0;
    if (!hidden && !b.attention.some((n) => n.event_type === VERIFICATION)) return (k.mcp = k);
    const by_type = Object.fromEntries(Object.entries(b.summary.by_type).filter(([t]) => t !== VERIFICATION));
    const briefing: Briefing = {
      ...b,
      attention: b.attention.filter((n) => n.event_type !== VERIFICATION),
      attentionTotal: Math.max(0, b.attentionTotal - hidden),
      summary: { total: Math.max(0, b.summary.total - hidden), by_type },
    };
    return (k.mcp = k.body ? this.keptFull(briefing) : this.keptCompact(briefing));
  }

  /** The legacy full view (bounded lists, no paging) under the saved policy (null) or a draft. A kept view is the same object again. */
  async full(actor: Actor, policy: HeartbeatPolicy | null): Promise<Record<string, unknown>> {
    return (await this.kept(actor, policy, true)).body!;
  }

  private items(b: Briefing): Item[] {
    const out: Item[] = [];
    for (const e of b.execution.resolved_unread) out.push({ kind: 'execution_resolved', key: `er:${String(e.id)}`, fp: fingerprint(e), data: e });
    for (const e of b.execution.open) out.push({ kind: 'execution_open', key: `eo:${String(e.id)}`, fp: fingerprint(e), data: e });
    for (const n of b.attention) {
      const d = compactAttention(n);
      out.push({ kind: 'attention', key: `n:${n.id}`, fp: fingerprint(d), data: d });
    }
    for (const s of b.signals) {
      const d = signalView(s, true);
      out.push({ kind: 'signal', key: `s:${s.id}`, fp: fingerprint([s.severity, s.metadata]), data: d });
    }
    return out;
  }

  /**
   * A fresh compact heartbeat (or, with `since`, the changes after an acknowledged run). `persist`
   * false (previews) writes no stream: no cursor can follow.
   */
  async fresh(
    actor: Actor,
    policy: HeartbeatPolicy | null,
    q: HeartbeatQueryInput,
    persist: boolean,
    surface: HeartbeatSurface = 'rest',
  ): Promise<Record<string, unknown>> {
    let baseline: Record<string, string> | null = null;
    let reset = false;
    if (q.since !== undefined) {
      const c = this.codec.decode(q.since, 'ack', actor.orgId, actor.memberId, 'since cursor');
      const s = await this.state.stream(actor.orgId, actor.memberId);
      if (!s || s.acked_run_id !== c.run) throw stale();
      if (!s.acked_at || this.clock.now().getTime() - new Date(s.acked_at).getTime() > BASELINE_TTL_MS) reset = true;
      else baseline = s.acked_keys;
    }
    // the stream head is read in the statement that reads the briefing's versions (one round trip less on every fresh heartbeat)
    const { kept, beside } = await this.keptWith(actor, policy, false, persist ? this.state.streamHeadRead(actor.memberId) : undefined);
    const k = surface === 'mcp' ? this.withoutVerification(kept) : kept;
    // the first page of a plain fresh heartbeat is made once per kept result and budget
    const memo = q.since === undefined ? k.pages.get(q.maxBytes) : undefined;
    const first = memo ?? this.firstPage(actor, k, q, baseline, reset, persist);
    if (q.since === undefined && !memo) k.pages.set(q.maxBytes, first);
    if (persist) {
      // the run id is a digest of the run, so an unchanged heartbeat is the same run: its stream
      // state is rewritten only when it moved on (a page consumed) or belongs to another run
      const head = HeartbeatStateRepository.parseHead(beside);
      if (!head || head.run_id !== first.run || head.next_page !== 2)
        await this.state.startRun(actor.orgId, actor.memberId, first.run, first.remaining, k.runKeys, first.remaining.length === 1, this.clock.now());
    }
    return first.body;
  }

  /**
   * The first page of a compact run: the envelope and the items (all, or with a baseline only the
   * new and changed ones), packed into the budget. The run id is derived from everything the run
   * consists of (caller, budget, envelope, items, run keys).
   */
  private firstPage(
    actor: Actor,
    k: Kept,
    q: HeartbeatQueryInput,
    baseline: Record<string, string> | null,
    reset: boolean,
    persist: boolean,
  ): { body: Record<string, unknown>; remaining: unknown[]; run: string } {
    const b = k.briefing;
    const all = k.items;
    const items = baseline ? all.filter((i) => baseline[i.key] !== i.fp) : all;
    const changed = baseline ? items.filter((i) => baseline[i.key] !== undefined).length : 0;
    const envelope = {
      agent: b.agent,
      attention_summary: b.summary,
      recommended_action: b.recommended,
      counts: {
        attention_items: b.attentionTotal,
        signal_groups: b.signals.length,
        signals_by_severity: {
          critical: b.signals.filter((s) => s.severity === 'critical').length,
          warning: b.signals.filter((s) => s.severity === 'warning').length,
          info: b.signals.filter((s) => s.severity === 'info').length,
        },
        execution_attention: { open: b.execution.open.length, resolved_unread: b.execution.resolved_unread.length },
        suppressed_expected_waits: b.suppressedExpectedWaits,
        items: items.length,
      },
      delta: {
        mode: q.since !== undefined && !reset ? 'since' : 'full',
        reset_required: reset,
        new_count: baseline ? items.length - changed : items.length,
        changed_count: changed,
        unchanged_count: baseline ? all.length - items.length : 0,
      },
    };
    const digest = createHash('sha256')
      .update(JSON.stringify([actor.orgId, actor.memberId, q.maxBytes, envelope, items, k.runKeys]))
      .digest('hex');
    // a UUID-shaped digest (heartbeat_streams.run_id is a uuid)
    const run = `${digest.slice(0, 8)}-${digest.slice(8, 12)}-${digest.slice(12, 16)}-${digest.slice(16, 20)}-${digest.slice(20, 32)}`;
    const { body, rest } = this.pack(actor, envelope, items, q.maxBytes, run, 1, persist);
    return { body, remaining: [envelope, ...rest], run };
  }

  private async nextPage(actor: Actor, q: HeartbeatQueryInput, surface: HeartbeatSurface): Promise<Record<string, unknown>> {
    const c = this.codec.decode(q.cursor!, 'page', actor.orgId, actor.memberId, 'cursor');
    const s = await this.state.stream(actor.orgId, actor.memberId);
    if (!s || s.run_id !== c.run || s.next_page !== c.page) throw stale();
    const [envelope, ...stored] = s.remaining as [Record<string, unknown>, ...Item[]];
    // a run started on REST and continued through MCP still leaves verification attention out
    const items = surface === 'mcp' ? stored.filter((i) => !isVerificationItem(i)) : stored;
    const { body, rest } = this.pack(actor, envelope, items, q.maxBytes, c.run, c.page, true);
    if (!(await this.state.advance(actor.orgId, actor.memberId, c.run, c.page, [envelope, ...rest], rest.length === 0, this.clock.now()))) throw stale();
    return body;
  }

  /**
   * One page: the envelope plus as many items as fit in `maxBytes` (serialized UTF-8) and
   * MAX_ITEMS, in order. 413 when not even the envelope and the first item fit (nothing advances).
   */
  private pack(actor: Actor, envelope: Record<string, unknown>, items: Item[], maxBytes: number, run: string, page: number, persist: boolean) {
    const next = persist ? this.codec.encode({ kind: 'page', org: actor.orgId, member: actor.memberId, run, page: page + 1 }) : null;
    const ack = persist ? this.codec.encode({ kind: 'ack', org: actor.orgId, member: actor.memberId, run, page: 0 }) : null;
    const render = (taken: Item[], hasMore: boolean, returnedBytes: number): Record<string, unknown> => {
      const body: Record<string, unknown> = {
        ...envelope,
        attention_items: taken.filter((i) => i.kind === 'attention').map((i) => i.data),
        signal_groups: taken.filter((i) => i.kind === 'signal').map((i) => i.data),
        execution_attention: {
          resolved_unread: taken.filter((i) => i.kind === 'execution_resolved').map((i) => i.data),
          open: taken.filter((i) => i.kind === 'execution_open').map((i) => i.data),
        },
        page: {
          max_bytes: maxBytes,
          max_items: MAX_ITEMS,
          returned_count: taken.length,
          returned_bytes: returnedBytes,
          has_more: hasMore,
          next_cursor: hasMore ? next : null,
          // on the terminal page only
          ...(hasMore ? {} : { ack_cursor: ack }),
        },
      };
      return body;
    };
    // the exact page of the first n items: its serialized size includes its own returned_bytes
    const pageOf = (n: number) => {
      const hasMore = n < items.length;
      const body = render(items.slice(0, n), hasMore, 0);
      const zero = bytes(body); // with returned_bytes 0 (one digit)
      let size = zero;
      for (let d = 1; d <= 6; d++) if (String(zero - 1 + d).length === d) size = zero - 1 + d;
      (body.page as Record<string, unknown>).returned_bytes = size;
      return { body, size };
    };
    const empty = pageOf(0);
    if (empty.size > maxBytes) throw tooSmall();
    // the longest prefix whose page fits: while items remain after it (has_more true) a page only
    // grows with every item it takes, so the prefixes that fit are 0..n and n is found by halving
    // (a handful of serializations, not one per item); the page that takes every item answers
    // has_more false with an ack cursor instead of a next one, so it is tried on its own
    const cap = Math.min(items.length, MAX_ITEMS);
    let n = 0;
    let best = empty;
    let lo = 1;
    let hi = Math.min(cap, items.length - 1);
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const p = pageOf(mid);
      if (p.size <= maxBytes) {
        n = mid;
        best = p;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (n === items.length - 1 && cap === items.length) {
      const all = pageOf(items.length);
      if (all.size <= maxBytes) {
        n = items.length;
        best = all;
      }
    }
    // not even the envelope and the first item fit (nothing advances)
    if (!n && items.length) throw tooSmall();
    const body = best.body;
    const taken = items.slice(0, n);
    return { body, rest: items.slice(taken.length) };
  }

  /** POST heartbeat/ack { cursor }: acknowledges the terminal page's run; idempotent. */
  async acknowledge(actor: Actor, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    for (const k of Object.keys(body)) if (k !== 'cursor') throw Errors.validation(`${k} is not known; send { cursor }`);
    if (typeof body.cursor !== 'string' || !body.cursor) throw Errors.validation('cursor is required: the ack_cursor of the terminal page');
    const c = this.codec.decode(body.cursor, 'ack', actor.orgId, actor.memberId, 'cursor');
    const outcome = await this.state.acknowledge(actor.orgId, actor.memberId, c.run, this.clock.now());
    if (outcome === 'stale') throw stale();
    return { acknowledged: true, cursor: body.cursor };
  }
}
