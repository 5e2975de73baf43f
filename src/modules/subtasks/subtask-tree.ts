import type { EntityManager } from 'typeorm';
import { Errors } from '../../common/errors/domain-error';

/** Levels an issue tree may have (a root plus four levels of subtasks). */
export const MAX_DEPTH = 5;

/** Level of `issueId` in its tree (a root is 1) and whether `candidate` is among its ancestors (itself included). */
export async function ancestry(m: EntityManager, orgId: string, issueId: string, candidate: string | null): Promise<{ depth: number; hasAncestor: boolean }> {
  const rows: Array<{ depth: number; hit: boolean }> = await m.query(
    `WITH RECURSIVE up(id, parent_id, depth) AS (
       SELECT id, parent_id, 1 FROM issues WHERE org_id = $1 AND id = $2
       UNION ALL
       SELECT i.id, i.parent_id, up.depth + 1 FROM issues i JOIN up ON i.org_id = $1 AND i.id = up.parent_id WHERE up.depth < 100
     ) SELECT max(depth)::int AS depth, coalesce(bool_or(id = $3::uuid), false) AS hit FROM up`,
    [orgId, issueId, candidate],
  );
  return { depth: rows[0]?.depth ?? 1, hasAncestor: !!rows[0]?.hit };
}

/** Levels of the subtree below and including `issueId` (a leaf is 1). */
export async function subtreeHeight(m: EntityManager, orgId: string, issueId: string): Promise<number> {
  const rows: Array<{ h: number }> = await m.query(
    `WITH RECURSIVE down(id, h) AS (
       SELECT id, 1 FROM issues WHERE org_id = $1 AND id = $2
       UNION ALL
       SELECT i.id, down.h + 1 FROM issues i JOIN down ON i.org_id = $1 AND i.parent_id = down.id WHERE down.h < 100
     ) SELECT max(h)::int AS h FROM down`,
    [orgId, issueId],
  );
  return rows[0]?.h ?? 1;
}

/** 400 when putting a subtree of `height` levels under `parentDepth` exceeds MAX_DEPTH. */
export function assertDepth(parentDepth: number, height: number): void {
  if (parentDepth + height > MAX_DEPTH) {
    throw Errors.validation(`Subtasks nest at most ${MAX_DEPTH} levels deep (this would make ${parentDepth + height})`, { code_detail: 'subtask_depth_exceeded' });
  }
}
