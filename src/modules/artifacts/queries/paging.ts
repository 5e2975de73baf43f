import { Errors } from '../../../common/errors/domain-error';
import { parsePage } from '../../../common/http/list';

/** Artifact lists: `limit` 1..100 (default 50, above clamped), `offset` 0..10000. */
export function artifactPage(query: Record<string, unknown>): { limit: number; offset: number } {
  const { limit, offset } = parsePage(query, { defaultLimit: 50, maxLimit: 100 });
  if (offset > 10_000) throw Errors.validation('offset must be at most 10000', { field: 'offset' });
  return { limit, offset };
}
