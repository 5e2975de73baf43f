import type { DependencyEntry, DependencyRecord } from './dependencies.response';
import { toIssueProjection } from './dependency.reader';

const iso = (d: Date | string): string => (d instanceof Date ? d : new Date(d)).toISOString();

/**
 * Row columns: `id`, `created_at`, `release_column_id`, `rc_key`, `rc_label`, `rc_position`, `rc_project_id`,
 * `satisfied`, and the other issue's projection columns prefixed `o_`.
 */
export function toDependencyEntry(r: Record<string, any>, otherReadable: boolean, blockerReadable: boolean): DependencyEntry {
  const rcId: string | null = blockerReadable && r.rc_key != null ? r.release_column_id : null;
  const entry: DependencyEntry = {
    id: r.id,
    createdAt: iso(r.created_at),
    issue: otherReadable ? toIssueProjection(r, 'o_') : null,
    releaseColumnId: rcId,
    release_column_id: rcId,
    releaseColumn: rcId ? { id: rcId, key: r.rc_key, label: r.rc_label, position: Number(r.rc_position), projectId: r.rc_project_id } : null,
  };
  if (blockerReadable) entry.satisfied = !!r.satisfied;
  return entry;
}

export function toDependencyRecord(r: Record<string, any>, otherReadable: boolean, blockerReadable: boolean): DependencyRecord {
  return {
    ...toDependencyEntry(r, otherReadable, blockerReadable),
    blocking_issue_id: r.blocking_issue_id,
    blocked_issue_id: r.blocked_issue_id,
    created_at: iso(r.created_at),
  };
}
