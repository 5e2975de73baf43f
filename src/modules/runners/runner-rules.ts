import { createHash, randomBytes } from 'node:crypto';
import { Errors } from '../../common/errors/domain-error';
import { isSafeIdentifier } from '../../common/http/sensitive-values';
import { isUuid } from '../../common/http/validation';
import { NOTIFICATION_ACTION_KINDS } from '../notifications/notification-kinds';

/**
 * Runner presence, intake and the lease state machine (documented in the OpenAPI descriptions and
 * docs/DECISIONS.md, issue 15).
 *
 * Presence (computed): `connected` while refreshed within RUNNER_STALE_SECONDS; `stale` after;
 * `offline` after DELETE (a later PUT of the same installation reconnects it).
 *
 * Lease states: `active` (phases pre_intent → intent_persisted → started → model_completed) →
 * `completed` | `failed` | `aborted` | `orphaned` (pre-intent only) | `uncertain` (outcome unknown:
 * blocks automatic replacement until the holder's `acknowledge` → `acknowledged`) | `expired` (not
 * renewed within LEASE_TTL_SECONDS; worker sweep and a check on every claim and write) |
 * `replaced` (a pre-intent lease of a runner that is no longer current, replaced by a new claim).
 * Closed states never change again (database trigger).
 */
export const RUNNER_STALE_SECONDS = 600;
export const LEASE_TTL_SECONDS = 300;
export const RECOVERY_TOKEN_SECONDS = 60;
export const RECOVERY_TOKENS_KEPT = 4;
/**
 * How long an accepted lease write's record (runner_lease_mutations) answers an exact retry (same
 * mutationId and body): the worker sweep deletes older ones. A retry after that is answered as a
 * new write with that sequence (a 409: RUNNER_LEASE_SEQUENCE_MISMATCH once the lease moved on,
 * RUNNER_LEASE_CLOSED or RUNNER_LEASE_EXPIRED once it ended).
 */
export const MUTATION_RETENTION_HOURS = 24;
export const RUNNER_REFRESH_LIMIT = { name: 'runner-refresh', points: 60, durationSeconds: 60, failClosed: true };

export const PLATFORMS = ['darwin', 'linux', 'windows'] as const;
export const ARCHES = ['arm64', 'x64', 'amd64'] as const;
export const CAPABILITIES = ['codex', 'git'] as const;
export const INTAKE_STATES = ['active', 'paused'] as const;
export type IntakeState = (typeof INTAKE_STATES)[number];

export const LEASE_TRANSITIONS = [
  'renew',
  'progress',
  'turn_intent_persisted',
  'started',
  'model_completed',
  'completed',
  'failed',
  'aborted',
  'orphaned',
  'uncertain_outcome',
  'acknowledge',
] as const;
export type LeaseTransition = (typeof LEASE_TRANSITIONS)[number];
export const PROGRESS_CODES = ['preparing', 'turn_intent_persisted', 'sdk_accepted', 'running', 'model_completed', 'finalizing'] as const;
export const ERROR_CODES = ['runner_error', 'sdk_error', 'model_error', 'timeout', 'cancelled', 'unknown'] as const;

const PLATFORM_NAMES: Record<string, string> = { darwin: 'macOS', linux: 'Linux', windows: 'Windows' };
/** The server-derived display name, from closed values only. */
export const runnerDisplayName = (platform: string, arch: string): string => `${PLATFORM_NAMES[platform] ?? platform} ${arch} runner`;

const SEMVER_RE = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})$/;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads `names` (camelCase first, then aliases) from `o`; two names with different values are a 400. */
function pick(o: Record<string, unknown>, field: string, ...names: string[]): unknown {
  let found: unknown = undefined;
  let seen: string | null = null;
  for (const n of names) {
    if (o[n] === undefined) continue;
    if (seen !== null && JSON.stringify(o[n]) !== JSON.stringify(found)) throw Errors.validation(`${seen} and ${n} disagree; send one of them`);
    found = o[n];
    seen = n;
  }
  return found;
}

function strict(o: Record<string, unknown>, where: string, allowed: string[]): void {
  const unknown = Object.keys(o).filter((k) => !allowed.includes(k));
  if (unknown.length)
    throw Errors.validation(`${where} has unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => JSON.stringify(k.slice(0, 50))).join(', ')}`);
}

export interface RunnerInput {
  instanceId: string;
  hostId: string | null;
  platform: string;
  arch: string;
  capabilities: string[];
  clientVersion: string;
}

/** The strict PUT body `{ runner: { instanceId, hostId?, platform, arch, capabilities, clientVersion, intakeState? } }`. */
export function parseRunnerBody(body: unknown): RunnerInput {
  if (!isObj(body)) throw Errors.validation('Request body must be a JSON object');
  strict(body, 'body', ['runner']);
  const r = body.runner;
  if (!isObj(r)) throw Errors.validation('runner must be an object');
  strict(r, 'runner', [
    'instanceId',
    'instance_id',
    'hostId',
    'host_id',
    'platform',
    'arch',
    'capabilities',
    'clientVersion',
    'client_version',
    'intakeState',
    'intake_state',
  ]);
  const instanceId = pick(r, 'instanceId', 'instanceId', 'instance_id');
  if (!isUuid(instanceId)) throw Errors.validation('runner.instanceId must be a UUID');
  const hostId = pick(r, 'hostId', 'hostId', 'host_id');
  if (hostId !== undefined && hostId !== null && (typeof hostId !== 'string' || !hostId.length || hostId.length > 255 || !isSafeIdentifier(hostId))) {
    throw Errors.validation('runner.hostId must be 1..255 characters without credentials or local paths');
  }
  const platform = r.platform;
  if (!(PLATFORMS as readonly unknown[]).includes(platform)) throw Errors.validation(`runner.platform must be one of ${PLATFORMS.join(', ')}`);
  const arch = r.arch;
  if (!(ARCHES as readonly unknown[]).includes(arch)) throw Errors.validation(`runner.arch must be one of ${ARCHES.join(', ')}`);
  const caps = r.capabilities ?? [];
  if (!Array.isArray(caps) || caps.some((c) => !(CAPABILITIES as readonly unknown[]).includes(c)) || new Set(caps).size !== caps.length) {
    throw Errors.validation(`runner.capabilities must be unique values from ${CAPABILITIES.join(', ')}`);
  }
  const clientVersion = pick(r, 'clientVersion', 'clientVersion', 'client_version');
  if (typeof clientVersion !== 'string' || !SEMVER_RE.test(clientVersion))
    throw Errors.validation('runner.clientVersion must be a numeric semantic version (e.g. 1.4.2)');
  const intake = pick(r, 'intakeState', 'intakeState', 'intake_state');
  if (intake !== undefined && !(INTAKE_STATES as readonly unknown[]).includes(intake)) throw Errors.validation('runner.intakeState must be active or paused');
  return {
    instanceId: instanceId.toLowerCase(),
    hostId: (hostId as string | null | undefined) ?? null,
    platform: platform as string,
    arch: arch as string,
    capabilities: [...(caps as string[])].sort(),
    clientVersion,
  };
}

export function parseIntakeBody(body: unknown): IntakeState {
  if (!isObj(body)) throw Errors.validation('Request body must be a JSON object');
  strict(body, 'body', ['intake_state', 'intakeState']);
  const v = pick(body, 'intake_state', 'intake_state', 'intakeState');
  if (!(INTAKE_STATES as readonly unknown[]).includes(v)) throw Errors.validation('intake_state must be active or paused');
  return v as IntakeState;
}

export const CLAIM_KINDS = ['ordinary', 'attention_resume'] as const;
/** The action kinds an attention claim may name are the notification action kinds; only this one resumes a thread. */
export const RESUME_ACTION = 'resume_agent_thread';
/** Host and thread routing identifiers: 1..255 characters, no credentials, local paths or control characters. */
export const ROUTING_ID_MAX = 255;

export interface ClaimInput {
  issueId: string;
  idempotencyKey: string;
  /** Present for `claimKind: "attention_resume"`: the notification-routed resume. */
  attention: { attentionItemId: string; runnerHostId: string; preservedThreadId: string; actionKind: string } | null;
  /** Present for the canonical human-attention resume (`attention_source: "human_attention"`). */
  humanAttention: { executionId: string; itemId: string; expectedAttentionVersion: number; expectedExecutionVersion: number } | null;
  /** Routing a bare human-attention resume may send (`runnerHostId`, `preservedThreadId`); null when not sent. */
  routing: { hostId: string | null; threadId: string | null };
}

const routingId = (v: unknown, name: string, required: boolean): string | null => {
  if (v === undefined || v === null) {
    if (required) throw Errors.validation(`${name} is required for claimKind attention_resume`);
    return null;
  }
  if (typeof v !== 'string' || !v.length || v.length > ROUTING_ID_MAX || !isSafeIdentifier(v)) {
    throw Errors.validation(`${name} must be 1..${ROUTING_ID_MAX} characters without credentials or local paths`);
  }
  return v;
};

/**
 * The claim body. `claimKind` (alias `claim_kind`): `ordinary` (default) or `attention_resume`,
 * which also requires `attentionItemId` (the caller's attention notification, or for the
 * human-attention source its attention item), `runnerHostId`, `preservedThreadId` (each 1..255
 * safe characters) and `actionKind` (a notification action kind). The canonical human-attention
 * resume adds `attention_source: "human_attention"` with `execution_id`, `human_attention_item_id`,
 * `expected_attention_version`, `expected_execution_version` (with or without `claimKind`; without
 * it `runnerHostId` and `preservedThreadId` are optional). Unknown fields and values are 400.
 */
export function parseClaimBody(body: unknown): ClaimInput {
  if (!isObj(body)) throw Errors.validation('Request body must be a JSON object');
  strict(body, 'body', [
    'issueId',
    'issue_id',
    'idempotencyKey',
    'idempotency_key',
    'claimKind',
    'claim_kind',
    'attentionItemId',
    'attention_item_id',
    'runnerHostId',
    'runner_host_id',
    'preservedThreadId',
    'preserved_thread_id',
    'actionKind',
    'action_kind',
    'attention_source',
    'attentionSource',
    'execution_id',
    'executionId',
    'human_attention_item_id',
    'humanAttentionItemId',
    'expected_attention_version',
    'expectedAttentionVersion',
    'expected_execution_version',
    'expectedExecutionVersion',
  ]);
  const kind = pick(body, 'claimKind', 'claimKind', 'claim_kind') ?? 'ordinary';
  if (!(CLAIM_KINDS as readonly unknown[]).includes(kind)) throw Errors.validation(`claimKind must be one of ${CLAIM_KINDS.join(', ')}`);
  const resume = kind === 'attention_resume';
  const itemRef = pick(body, 'attentionItemId', 'attentionItemId', 'attention_item_id');
  const action = pick(body, 'actionKind', 'actionKind', 'action_kind');
  const host = pick(body, 'runnerHostId', 'runnerHostId', 'runner_host_id');
  const thread = pick(body, 'preservedThreadId', 'preservedThreadId', 'preserved_thread_id');
  const source = pick(body, 'attention_source', 'attention_source', 'attentionSource');
  if (!resume && (itemRef !== undefined || action !== undefined)) throw Errors.validation('attentionItemId and actionKind go with claimKind attention_resume');
  if (!resume && source === undefined && (host !== undefined || thread !== undefined)) {
    throw Errors.validation('runnerHostId and preservedThreadId go with claimKind attention_resume or attention_source human_attention');
  }
  let attention: ClaimInput['attention'] = null;
  if (resume) {
    if (!isUuid(itemRef)) throw Errors.validation('attentionItemId must be a UUID');
    if (!(NOTIFICATION_ACTION_KINDS as readonly unknown[]).includes(action))
      throw Errors.validation(`actionKind must be one of ${NOTIFICATION_ACTION_KINDS.join(', ')}`);
    attention = {
      attentionItemId: itemRef.toLowerCase(),
      runnerHostId: routingId(host, 'runnerHostId', true)!,
      preservedThreadId: routingId(thread, 'preservedThreadId', true)!,
      actionKind: action as string,
    };
  }
  const routing = { hostId: routingId(host, 'runnerHostId', false), threadId: routingId(thread, 'preservedThreadId', false) };
  const ex = pick(body, 'execution_id', 'execution_id', 'executionId');
  const item = pick(body, 'human_attention_item_id', 'human_attention_item_id', 'humanAttentionItemId');
  const av = pick(body, 'expected_attention_version', 'expected_attention_version', 'expectedAttentionVersion');
  const ev = pick(body, 'expected_execution_version', 'expected_execution_version', 'expectedExecutionVersion');
  let humanAttention: ClaimInput['humanAttention'] = null;
  if (source !== undefined) {
    if (source !== 'human_attention') throw Errors.validation('attention_source must be human_attention');
    if (!isUuid(ex)) throw Errors.validation('execution_id must be a UUID');
    if (!isUuid(item)) throw Errors.validation('human_attention_item_id must be a UUID');
    if (!Number.isSafeInteger(av) || (av as number) < 1) throw Errors.validation('expected_attention_version must be a positive integer');
    if (!Number.isSafeInteger(ev) || (ev as number) < 1) throw Errors.validation('expected_execution_version must be a positive integer');
    humanAttention = {
      executionId: ex.toLowerCase(),
      itemId: item.toLowerCase(),
      expectedAttentionVersion: av as number,
      expectedExecutionVersion: ev as number,
    };
  } else if ([ex, item, av, ev].some((v) => v !== undefined)) {
    throw Errors.validation('execution_id, human_attention_item_id and the expected versions go with attention_source "human_attention"');
  }
  const issueId = pick(body, 'issueId', 'issueId', 'issue_id');
  if (!isUuid(issueId)) throw Errors.validation('issueId must be a UUID');
  const key = pick(body, 'idempotencyKey', 'idempotencyKey', 'idempotency_key');
  if (typeof key !== 'string' || !key.length || key.length > 200) throw Errors.validation('idempotencyKey must be 1..200 characters');
  return { issueId: issueId.toLowerCase(), idempotencyKey: key, attention, humanAttention, routing };
}

/** What a claim's idempotency key is bound to (an ordinary claim hashes as before attention claims existed). */
export function claimFingerprint(c: ClaimInput): Record<string, unknown> {
  const out: Record<string, unknown> = { issueId: c.issueId, humanAttention: c.humanAttention };
  if (c.attention) out.attention = c.attention;
  if (c.routing.hostId !== null || c.routing.threadId !== null) out.routing = c.routing;
  return out;
}

export interface LeaseWriteInput {
  token: string;
  claimGeneration: number;
  sequence: number;
  mutationId: string;
  transition: LeaseTransition;
  progress: string | null;
  errorCode: string | null;
  /** The agent thread the lease works in (`turn_intent_persisted` and `started` only; set once). */
  threadId: string | null;
}

/** The strict lease update body; free-form values and unknown fields are refused. */
export function parseLeaseWrite(body: unknown): LeaseWriteInput {
  if (!isObj(body)) throw Errors.validation('Request body must be a JSON object');
  strict(body, 'body', [
    'token',
    'leaseToken',
    'lease_token',
    'claimGeneration',
    'claim_generation',
    'sequence',
    'mutationId',
    'mutation_id',
    'transition',
    'progress',
    'errorCode',
    'error_code',
    'threadId',
    'thread_id',
  ]);
  const token = pick(body, 'token', 'token', 'leaseToken', 'lease_token');
  if (typeof token !== 'string' || !token.length || token.length > 200) throw Errors.validation('token must be the lease token');
  const gen = pick(body, 'claimGeneration', 'claimGeneration', 'claim_generation');
  if (!Number.isSafeInteger(gen) || (gen as number) < 1) throw Errors.validation('claimGeneration must be a positive integer');
  const seq = body.sequence;
  if (!Number.isSafeInteger(seq) || (seq as number) < 1 || (seq as number) > 2_000_000_000) throw Errors.validation('sequence must be a positive integer');
  const mutationId = pick(body, 'mutationId', 'mutationId', 'mutation_id');
  if (!isUuid(mutationId)) throw Errors.validation('mutationId must be a UUID');
  const transition = body.transition;
  if (!(LEASE_TRANSITIONS as readonly unknown[]).includes(transition)) throw Errors.validation(`transition must be one of ${LEASE_TRANSITIONS.join(', ')}`);
  const progress = body.progress ?? null;
  if (progress !== null && !(PROGRESS_CODES as readonly unknown[]).includes(progress))
    throw Errors.validation(`progress must be one of ${PROGRESS_CODES.join(', ')}`);
  if (transition === 'progress' && progress === null) throw Errors.validation('progress is required for the progress transition');
  const errorCode = pick(body, 'errorCode', 'errorCode', 'error_code') ?? null;
  if (errorCode !== null && !(ERROR_CODES as readonly unknown[]).includes(errorCode))
    throw Errors.validation(`errorCode must be one of ${ERROR_CODES.join(', ')}`);
  const threadId = routingId(pick(body, 'threadId', 'threadId', 'thread_id'), 'threadId', false);
  if (threadId !== null && transition !== 'turn_intent_persisted' && transition !== 'started') {
    throw Errors.validation('threadId goes with the turn_intent_persisted and started transitions');
  }
  return {
    token,
    claimGeneration: gen as number,
    sequence: seq as number,
    mutationId: mutationId.toLowerCase(),
    transition: transition as LeaseTransition,
    progress: progress as string | null,
    errorCode: errorCode as string | null,
    threadId,
  };
}

/** A fresh ephemeral lease token (returned once) and its SHA-256 (stored). */
export function newToken(): { token: string; hash: string } {
  const token = `rlt_${randomBytes(32).toString('base64url')}`;
  return { token, hash: tokenHash(token) };
}
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
