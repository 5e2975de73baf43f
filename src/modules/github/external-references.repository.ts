import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';

export type TargetType = 'issue' | 'project';

/** One link of an external reference to an issue or project, with its reference. */
export interface ReferenceLinkRow {
  id: string;
  external_reference_id: string;
  target_type: TargetType;
  target_id: string;
  provider: string;
  object_type: string;
  provenance: string;
  repository_id: string;
  pr_id: string;
  owner: string;
  repo: string;
  pr_number: number;
  canonical_url: string;
  label: string | null;
  created_by_member_id: string | null;
  created_at: Date;
}

const SELECT = `SELECT k.id, k.external_reference_id, k.target_type, coalesce(k.issue_id, k.project_id) AS target_id, r.provider, r.object_type,
                       r.provenance, r.repository_id::text, r.pr_id::text, r.owner, r.repo, r.pr_number, r.canonical_url, r.label,
                       k.created_by_member_id, k.created_at
                  FROM github_external_reference_links k
                  JOIN github_external_references r ON r.org_id = k.org_id AND r.id = k.external_reference_id`;

/** github_external_references and their links (issue and project targets). */
@Injectable()
export class ExternalReferencesRepository {
  constructor(private readonly sql: Sql) {}

  /** Every link of the target (no paging: collections are small and returned whole). */
  listFor(orgId: string, type: TargetType, targetId: string): Promise<ReferenceLinkRow[]> {
    return this.sql.rows<ReferenceLinkRow>(
      `${SELECT} WHERE k.org_id = $1 AND k.target_type = $2 AND coalesce(k.issue_id, k.project_id) = $3 ORDER BY k.created_at, k.id`,
      [orgId, type, targetId],
    );
  }

  getFor(orgId: string, type: TargetType, targetId: string, linkId: string): Promise<ReferenceLinkRow | undefined> {
    return this.sql.row<ReferenceLinkRow>(`${SELECT} WHERE k.org_id = $1 AND k.target_type = $2 AND coalesce(k.issue_id, k.project_id) = $3 AND k.id = $4`, [
      orgId,
      type,
      targetId,
      linkId,
    ]);
  }

  /** A link by id in the organization (artifact source provenance). */
  byId(orgId: string, linkId: string): Promise<ReferenceLinkRow | undefined> {
    return this.sql.row<ReferenceLinkRow>(`${SELECT} WHERE k.org_id = $1 AND k.id = $2`, [orgId, linkId]);
  }

  async liveIds(orgId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.sql.rows<{ id: string }>('SELECT id FROM github_external_reference_links WHERE org_id = $1 AND id = ANY($2::uuid[])', [orgId, ids]);
    return new Set(rows.map((r) => r.id));
  }

  /**
   * The reference of a provider identity, created or refreshed (canonical URL and label follow the
   * provider), with whether it was created and, when it existed, whether what it shows changed.
   */
  async upsertReference(
    r: {
      org_id: string;
      id: string;
      repository_id: number;
      pr_id: number;
      owner: string;
      repo: string;
      pr_number: number;
      canonical_url: string;
      label: string | null;
    },
    now: Date,
    m: Tx,
  ): Promise<{ id: string; inserted: boolean; changed: boolean }> {
    const before = await this.sql.row<{ owner: string; repo: string; pr_number: number; canonical_url: string; label: string | null }>(
      `SELECT owner, repo, pr_number, canonical_url, label FROM github_external_references
        WHERE org_id = $1 AND provider = 'github' AND object_type = 'pull_request' AND repository_id = $2 AND pr_id = $3 FOR UPDATE`,
      [r.org_id, r.repository_id, r.pr_id],
      m,
    );
    const row = await this.sql.row<{ id: string; inserted: boolean }>(
      `INSERT INTO github_external_references (org_id, id, provider, object_type, provenance, repository_id, pr_id, owner, repo, pr_number, canonical_url, label, created_at, updated_at)
       VALUES ($1, $2, 'github', 'pull_request', 'github_api', $3, $4, $5, $6, $7, $8, $9, $10, $10)
       ON CONFLICT (org_id, provider, object_type, repository_id, pr_id) DO UPDATE
         SET owner = EXCLUDED.owner, repo = EXCLUDED.repo, pr_number = EXCLUDED.pr_number, canonical_url = EXCLUDED.canonical_url,
             label = EXCLUDED.label, updated_at = EXCLUDED.updated_at
       RETURNING id, (xmax = 0) AS inserted`,
      [r.org_id, r.id, r.repository_id, r.pr_id, r.owner, r.repo, r.pr_number, r.canonical_url, r.label, now],
      m,
    );
    const changed =
      !!before &&
      (before.owner !== r.owner ||
        before.repo !== r.repo ||
        before.pr_number !== r.pr_number ||
        before.canonical_url !== r.canonical_url ||
        before.label !== r.label);
    return { id: row!.id, inserted: row!.inserted, changed };
  }

  /** Every link of a reference with its target's project (an issue's current project, or the project itself): timeline entries. */
  linksOfReference(orgId: string, referenceId: string, m: Tx): Promise<Array<ReferenceLinkRow & { project_id: string | null }>> {
    return this.sql.rows(
      `${SELECT.replace('k.created_at', 'k.created_at, coalesce(i.project_id, k.project_id) AS project_id')}
         LEFT JOIN issues i ON i.org_id = k.org_id AND i.id = k.issue_id
        WHERE k.org_id = $1 AND k.external_reference_id = $2 ORDER BY k.created_at, k.id`,
      [orgId, referenceId],
      m,
    );
  }

  /** Links the reference to the target; the existing link when it is already linked (`created` false). */
  async link(
    orgId: string,
    id: string,
    referenceId: string,
    type: TargetType,
    targetId: string,
    memberId: string,
    now: Date,
    m: Tx,
  ): Promise<{ id: string; created: boolean }> {
    const row = await this.sql.row<{ id: string }>(
      `INSERT INTO github_external_reference_links (org_id, id, external_reference_id, target_type, issue_id, project_id, created_by_member_id, created_at)
       VALUES ($1, $2, $3, $4, CASE WHEN $4 = 'issue' THEN $5::uuid END, CASE WHEN $4 = 'project' THEN $5::uuid END, $6, $7)
       ON CONFLICT DO NOTHING RETURNING id`,
      [orgId, id, referenceId, type, targetId, memberId, now],
      m,
    );
    if (row) return { id: row.id, created: true };
    const existing = await this.sql.row<{ id: string }>(
      `SELECT id FROM github_external_reference_links WHERE org_id = $1 AND external_reference_id = $2 AND target_type = $3 AND coalesce(issue_id, project_id) = $4`,
      [orgId, referenceId, type, targetId],
      m,
    );
    return { id: existing!.id, created: false };
  }

  /** Removes a link of the target; the removed link with its reference (for its timeline entry), undefined when there was none. */
  unlink(orgId: string, type: TargetType, targetId: string, linkId: string, m: Tx): Promise<ReferenceLinkRow | undefined> {
    return this.sql.row<ReferenceLinkRow>(
      `WITH gone AS (
         DELETE FROM github_external_reference_links WHERE org_id = $1 AND target_type = $2 AND coalesce(issue_id, project_id) = $3 AND id = $4
         RETURNING *)
       ${SELECT.replace('github_external_reference_links k', 'gone k')} WHERE k.org_id = $1`,
      [orgId, type, targetId, linkId],
      m,
    );
  }

  /** Points the PR links of the same PR at the reference (their `external_reference_id`). */
  async attachToPrLinks(orgId: string, referenceId: string, owner: string, repo: string, n: number, m: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE github_pr_links SET external_reference_id = $2 WHERE org_id = $1 AND lower(owner) = lower($3) AND lower(repo) = lower($4) AND pr_number = $5
          AND external_reference_id IS NULL`,
      [orgId, referenceId, owner, repo, n],
      m,
    );
  }
}
