import type { IssueLabelRow } from '../issues/issues.repository';
import type { IssueLabelResponse } from './issue-labels.response';

/** The response record of a label on an issue. */
export function toIssueLabelResponse(r: IssueLabelRow): IssueLabelResponse {
  return { id: r.id, name: r.name, color: r.color ?? null, description: r.description ?? null };
}
