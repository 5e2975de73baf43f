import type { LeaseRow } from './leases.repository';
import { runnerDisplayName } from './runner-rules';
import type { RunnerRow } from './runners.repository';
import type { LeaseEnvelope, LeaseResponse, RunnerResponse } from './runners.response';

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export const toRunner = (r: RunnerRow): RunnerResponse => ({
  id: r.id,
  agent_member_id: r.agent_member_id,
  agent_display_name: r.agent_display_name,
  display_name: runnerDisplayName(r.platform, r.arch),
  instance_id: r.instance_id,
  host_id: r.host_id,
  platform: r.platform,
  arch: r.arch,
  capabilities: r.capabilities,
  clientVersion: r.client_version,
  presence_state: r.presence_state,
  intake_state: r.intake_state,
  last_seen_at: iso(r.last_seen_at)!,
  disconnected_at: iso(r.disconnected_at),
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
});

export const toLease = (l: LeaseRow): LeaseResponse => ({
  id: l.id,
  issue_id: l.issue_id,
  agent_member_id: l.agent_member_id,
  runner_id: l.runner_id,
  execution_id: l.execution_id,
  claim_kind: l.claim_kind,
  attention_item_id: l.attention_item_id,
  notification_id: l.notification_id,
  state: l.state === 'active' && l.expired ? 'expired' : l.state,
  phase: l.phase,
  progress: l.progress,
  error_code: l.error_code,
  claim_generation: l.claim_generation,
  sequence: l.sequence,
  expires_at: iso(l.expires_at)!,
  created_at: iso(l.created_at)!,
  updated_at: iso(l.updated_at)!,
  ended_at: iso(l.ended_at),
});

/** A stored lease-write result: the mapped envelope, or the written row a one-statement renewal kept (`{ row }`). */
export const storedLeaseResponse = (stored: unknown): LeaseEnvelope =>
  stored !== null && typeof stored === 'object' && 'row' in stored ? { lease: toLease((stored as { row: LeaseRow }).row) } : (stored as LeaseEnvelope);
