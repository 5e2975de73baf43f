import { Injectable } from '@nestjs/common';
import { type Tx, Sql } from '../../database/sql.service';

/** Statements of issue trees (`issues.parent_id`): membership, locks, ancestry and re-parenting. */
@Injectable()
export class SubtasksRepository {
  constructor(private readonly sql: Sql) {}

  /** Whether issue `subtaskId` is a child of `parentId`. */
  async isChildOf(orgId: string, parentId: string, subtaskId: string, m?: Tx): Promise<boolean> {
    return !!(await this.sql.row('SELECT 1 FROM issues WHERE org_id = $1 AND id = $2 AND parent_id = $3', [orgId, subtaskId, parentId], m));
  }

  /**
   * Share-locks issue `id` until the transaction ends (it cannot move or be re-parented meanwhile,
   * so its depth holds, while other sub-task creations under it go on in parallel) and answers its
   * project and its level in its tree (a root is 1); undefined when it is gone.
   */
  async lockSharedWithDepth(orgId: string, id: string, m: Tx): Promise<{ project_id: string | null; depth: number } | undefined> {
    const row = await this.sql.row<{ found: boolean; project_id: string | null; depth: number }>(
      `WITH RECURSIVE locked AS (SELECT id, parent_id, project_id FROM issues WHERE org_id = $1 AND id = $2 FOR SHARE),
       up(id, parent_id, depth) AS (
         SELECT id, parent_id, 1 FROM locked
         UNION ALL
         SELECT i.id, i.parent_id, up.depth + 1 FROM issues i JOIN up ON i.org_id = $1 AND i.id = up.parent_id WHERE up.depth < 100
       ) SELECT EXISTS (SELECT 1 FROM locked) AS found, (SELECT project_id FROM locked) AS project_id, coalesce(max(depth), 1)::int AS depth FROM up`,
      [orgId, id],
      m,
    );
    return row?.found ? { project_id: row.project_id, depth: row.depth } : undefined;
  }

  /** Locks the given issues in id order (FOR NO KEY UPDATE: references to them stay possible); answers how many exist. */
  async lockAll(orgId: string, ids: string[], m: Tx): Promise<number> {
    const rows = await this.sql.rows<{ id: string; parent_id: string | null }>(
      'SELECT id, parent_id FROM issues WHERE org_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR NO KEY UPDATE',
      [orgId, ids],
      m,
    );
    return rows.length;
  }

  /** The parent of issue `id` (null: top level; undefined: no such issue). */
  async parentOf(orgId: string, id: string, m?: Tx): Promise<string | null | undefined> {
    const row = await this.sql.row<{ parent_id: string | null }>('SELECT parent_id FROM issues WHERE org_id = $1 AND id = $2', [orgId, id], m);
    return row?.parent_id;
  }

  /** Level of `issueId` in its tree (a root is 1) and whether `candidate` is among its ancestors (itself included). */
  async ancestry(orgId: string, issueId: string, candidate: string | null, m?: Tx): Promise<{ depth: number; hasAncestor: boolean }> {
    const row = await this.sql.row<{ depth: number; hit: boolean }>(
      `WITH RECURSIVE up(id, parent_id, depth) AS (
       SELECT id, parent_id, 1 FROM issues WHERE org_id = $1 AND id = $2
       UNION ALL
       SELECT i.id, i.parent_id, up.depth + 1 FROM issues i JOIN up ON i.org_id = $1 AND i.id = up.parent_id WHERE up.depth < 100
     ) SELECT max(depth)::int AS depth, coalesce(bool_or(id = $3::uuid), false) AS hit FROM up`,
      [orgId, issueId, candidate],
      m,
    );
    return { depth: row?.depth ?? 1, hasAncestor: !!row?.hit };
  }

  /** Levels of the subtree below and including `issueId` (a leaf is 1). */
  async subtreeHeight(orgId: string, issueId: string, m?: Tx): Promise<number> {
    const row = await this.sql.row<{ h: number }>(
      `WITH RECURSIVE down(id, h) AS (
       SELECT id, 1 FROM issues WHERE org_id = $1 AND id = $2
       UNION ALL
       SELECT i.id, down.h + 1 FROM issues i JOIN down ON i.org_id = $1 AND i.parent_id = down.id WHERE down.h < 100
     ) SELECT max(h)::int AS h FROM down`,
      [orgId, issueId],
      m,
    );
    return row?.h ?? 1;
  }

  /** Makes issue `id` a child of `parentId`. */
  async setParent(orgId: string, id: string, parentId: string, m: Tx): Promise<void> {
    await this.sql.run('UPDATE issues SET parent_id = $3, updated_at = now() WHERE org_id = $1 AND id = $2', [orgId, id, parentId], m);
  }

  /** Detaches child `id` from `parentId`; false when it was not its child. */
  async detach(orgId: string, id: string, parentId: string, m?: Tx): Promise<boolean> {
    const rows = await this.sql.rows(
      'UPDATE issues SET parent_id = NULL, updated_at = now() WHERE org_id = $1 AND id = $2 AND parent_id = $3 RETURNING id',
      [orgId, id, parentId],
      m,
    );
    return rows.length > 0;
  }

  /** Ids of the direct children of `parentId` in `readable` projects ('all': any), oldest first (at most 500). */
  async childIds(orgId: string, parentId: string, readable: 'all' | string[], m?: Tx): Promise<string[]> {
    const rows =
      readable === 'all'
        ? await this.sql.rows<{ id: string }>(
            'SELECT id FROM issues WHERE org_id = $1 AND parent_id = $2 ORDER BY created_at, id LIMIT 500',
            [orgId, parentId],
            m,
          )
        : await this.sql.rows<{ id: string }>(
            'SELECT id FROM issues WHERE org_id = $1 AND parent_id = $2 AND project_id = ANY($3::uuid[]) ORDER BY created_at, id LIMIT 500',
            [orgId, parentId, readable],
            m,
          );
    return rows.map((r) => r.id);
  }
}
