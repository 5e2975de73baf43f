import { createHash, randomBytes } from 'node:crypto';
import { Errors } from '../../common/errors/domain-error';
import { isSafeIdentifier } from '../../common/http/sensitive-values';
import { isUuid } from '../../common/http/validation';

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

export interface ClaimInput {
  issueId: string;
  idempotencyKey: string;
  /** Present for the canonical human-attention resume (`attention_source: "human_attention"`). */
  humanAttention: { executionId: string; itemId: string; expectedAttentionVersion: number; expectedExecutionVersion: number } | null;
}

/**
 * The claim body: ordinary, or the canonical human-attention resume (`attention_source:
 * "human_attention"` with `execution_id`, `human_attention_item_id`, `expected_attention_version`,
 * `expected_execution_version`). `claimKind: "attention_resume"` is refused (422 RUNNER_CLAIM_KIND_UNSUPPORTED).
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
    'runnerHostId',
    'preservedThreadId',
    'actionKind',
    'attention_source',
    'execution_id',
    'human_attention_item_id',
    'expected_attention_version',
    'expected_execution_version',
  ]);
  const kind = pick(body, 'claimKind', 'claimKind', 'claim_kind');
  if (kind !== undefined && kind !== 'ordinary') {
    throw Errors.unprocessable('claimKind attention_resume is not supported; resume with attention_source "human_attention"', 'RUNNER_CLAIM_KIND_UNSUPPORTED');
  }
  let humanAttention: ClaimInput['humanAttention'] = null;
  if (body.attention_source !== undefined) {
    if (body.attention_source !== 'human_attention') throw Errors.validation('attention_source must be human_attention');
    const { execution_id: ex, human_attention_item_id: item, expected_attention_version: av, expected_execution_version: ev } = body;
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
  } else if (['execution_id', 'human_attention_item_id', 'expected_attention_version', 'expected_execution_version'].some((k) => body[k] !== undefined)) {
    throw Errors.validation('execution_id, human_attention_item_id and the expected versions go with attention_source "human_attention"');
  }
  const issueId = pick(body, 'issueId', 'issueId', 'issue_id');
  if (!isUuid(issueId)) throw Errors.validation('issueId must be a UUID');
  const key = pick(body, 'idempotencyKey', 'idempotencyKey', 'idempotency_key');
  if (typeof key !== 'string' || !key.length || key.length > 200) throw Errors.validation('idempotencyKey must be 1..200 characters');
  return { issueId: issueId.toLowerCase(), idempotencyKey: key, humanAttention };
}

export interface LeaseWriteInput {
  token: string;
  claimGeneration: number;
  sequence: number;
  mutationId: string;
  transition: LeaseTransition;
  progress: string | null;
  errorCode: string | null;
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
  return {
    token,
    claimGeneration: gen as number,
    sequence: seq as number,
    mutationId: mutationId.toLowerCase(),
    transition: transition as LeaseTransition,
    progress: progress as string | null,
    errorCode: errorCode as string | null,
  };
}

/** A fresh ephemeral lease token (returned once) and its SHA-256 (stored). */
export function newToken(): { token: string; hash: string } {
  const token = `rlt_${randomBytes(32).toString('base64url')}`;
  return { token, hash: tokenHash(token) };
}
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');
