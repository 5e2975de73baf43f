import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';

export interface PrLinkRow {
  org_id: string;
  id: string;
  issue_id: string;
  owner: string;
  repo: string;
  pr_number: number;
  pr_id: string | null;
  github_repository_id: string | null;
  external_reference_id: string | null;
  pr_url: string;
  pr_title: string;
  pr_status: string;
  head_sha: string | null;
  base_ref: string | null;
  base_sha: string | null;
  head_history: string[];
  identity_attempts: number;
  created_at: Date;
  updated_at: Date;
}

/** Provider metadata of a pull request, as stored on its links. */
export interface PrMetadata {
  pr_id: number | null;
  github_repository_id: number | null;
  pr_url: string;
  pr_title: string;
  pr_status: string;
  head_sha: string | null;
  base_ref: string | null;
  base_sha: string | null;
}

/** A link whose provider title, state or head changed (before and after), with its issue's project. */
export interface PrLinkChange {
  id: string;
  issue_id: string;
  project_id: string | null;
  owner: string;
  repo: string;
  pr_number: number;
  pr_url: string;
  pr_title: string;
  pr_status: string;
  head_sha: string | null;
  old_title: string;
  old_status: string;
  old_head: string | null;
}

const COLS = `org_id, id, issue_id, owner, repo, pr_number, pr_id::text, github_repository_id::text, external_reference_id, pr_url, pr_title,
  pr_status, head_sha, base_ref, base_sha, head_history, identity_attempts, created_at, updated_at`;

const L_COLS = COLS.split(',')
  .map((c) => `l.${c.trim()}`)
  .join(', ');

/** github_pr_links. */
@Injectable()
export class PrLinksRepository {
  constructor(private readonly sql: Sql) {}

  listForIssue(orgId: string, issueId: string): Promise<PrLinkRow[]> {
    return this.sql.rows<PrLinkRow>(`SELECT ${COLS} FROM github_pr_links WHERE org_id = $1 AND issue_id = $2 ORDER BY created_at, id`, [orgId, issueId]);
  }

  get(orgId: string, issueId: string, id: string): Promise<PrLinkRow | undefined> {
    return this.sql.row<PrLinkRow>(`SELECT ${COLS} FROM github_pr_links WHERE org_id = $1 AND issue_id = $2 AND id = $3`, [orgId, issueId, id]);
  }

  find(orgId: string, issueId: string, owner: string, repo: string, n: number): Promise<PrLinkRow | undefined> {
    return this.sql.row<PrLinkRow>(
      `SELECT ${COLS} FROM github_pr_links WHERE org_id = $1 AND issue_id = $2 AND lower(owner) = lower($3) AND lower(repo) = lower($4) AND pr_number = $5`,
      [orgId, issueId, owner, repo, n],
    );
  }

  /** Inserts a link; undefined when the same PR is already linked to the issue. */
  insert(
    l: { org_id: string; id: string; issue_id: string; owner: string; repo: string; pr_number: number; created_by_member_id: string } & PrMetadata,
    now: Date,
    nextIdentityAt: Date | null,
    m?: Tx,
  ): Promise<PrLinkRow | undefined> {
    return this.sql.row<PrLinkRow>(
      `INSERT INTO github_pr_links (org_id, id, issue_id, owner, repo, pr_number, pr_id, github_repository_id, pr_url, pr_title, pr_status,
                                    head_sha, base_ref, base_sha, identity_next_at, created_by_member_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17)
       ON CONFLICT DO NOTHING RETURNING ${COLS}`,
      [
        l.org_id,
        l.id,
        l.issue_id,
        l.owner,
        l.repo,
        l.pr_number,
        l.pr_id,
        l.github_repository_id,
        l.pr_url,
        l.pr_title,
        l.pr_status,
        l.head_sha,
        l.base_ref,
        l.base_sha,
        nextIdentityAt,
        l.created_by_member_id,
        now,
      ],
      m,
    );
  }

  async delete(orgId: string, issueId: string, id: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM github_pr_links WHERE org_id = $1 AND issue_id = $2 AND id = $3', [orgId, issueId, id])) > 0;
  }

  /**
   * Applies fresh provider metadata to every link of the PR in the organization (all issues): a
   * new head SHA moves the old one into `head_history` (newest first, at most 20); immutable ids
   * are only filled, never changed. Answers the links whose title, state or head changed, with
   * their values before and after (the `github_pr.updated` timeline entries) and their issue's project.
   */
  applyMetadata(orgId: string, owner: string, repo: string, n: number, md: Partial<PrMetadata>, now: Date, m?: Tx): Promise<PrLinkChange[]> {
    return this.sql.rows<PrLinkChange>(
      `WITH old AS (
         SELECT id AS o_id, pr_title AS old_title, pr_status AS old_status, head_sha AS old_head FROM github_pr_links
          WHERE org_id = $1 AND lower(owner) = lower($2) AND lower(repo) = lower($3) AND pr_number = $4 FOR UPDATE),
       upd AS (
         UPDATE github_pr_links l SET
            pr_id = coalesce(pr_id, $5::bigint),
            github_repository_id = coalesce(github_repository_id, $6::bigint),
            pr_title = coalesce($7, pr_title),
            pr_status = coalesce($8, pr_status),
            head_history = CASE WHEN $9::text IS NOT NULL AND head_sha IS NOT NULL AND head_sha <> $9::text
                                THEN (SELECT coalesce(jsonb_agg(x), '[]'::jsonb) FROM (
                                        SELECT x FROM jsonb_array_elements(jsonb_build_array(head_sha) || head_history) WITH ORDINALITY AS e(x, i)
                                         WHERE x <> to_jsonb($9::text) ORDER BY i LIMIT 20) h)
                                ELSE head_history END,
            head_sha = coalesce($9, head_sha),
            base_ref = coalesce($10, base_ref),
            base_sha = coalesce($11, base_sha),
            identity_next_at = CASE WHEN coalesce(pr_id, $5::bigint) IS NOT NULL AND coalesce(github_repository_id, $6::bigint) IS NOT NULL THEN NULL ELSE identity_next_at END,
            updated_at = $12
           FROM old WHERE l.org_id = $1 AND l.id = old.o_id
          RETURNING l.id, l.issue_id, l.owner, l.repo, l.pr_number, l.pr_url, l.pr_title, l.pr_status, l.head_sha, old.old_title, old.old_status, old.old_head)
       SELECT u.*, i.project_id FROM upd u JOIN issues i ON i.org_id = $1 AND i.id = u.issue_id
        WHERE u.pr_title IS DISTINCT FROM u.old_title OR u.pr_status IS DISTINCT FROM u.old_status OR u.head_sha IS DISTINCT FROM u.old_head
        ORDER BY u.issue_id, u.id`,
      [
        orgId,
        owner,
        repo,
        n,
        md.pr_id ?? null,
        md.github_repository_id ?? null,
        md.pr_title ?? null,
        md.pr_status ?? null,
        md.head_sha ?? null,
        md.base_ref ?? null,
        md.base_sha ?? null,
        now,
      ],
      m,
    );
  }

  /** Links of one PR in the organization, with their issue's project and assignees (verification). */
  linksOfPr(orgId: string, owner: string, repo: string, n: number, m?: Tx): Promise<Array<PrLinkRow & { project_id: string | null; assignee_ids: string[] }>> {
    return this.sql.rows(
      `SELECT ${L_COLS},
              i.project_id,
              array(SELECT ia.member_id FROM issue_assignees ia WHERE ia.org_id = i.org_id AND ia.issue_id = i.id
                    UNION SELECT i.assignee_id WHERE i.assignee_id IS NOT NULL)::uuid[] AS assignee_ids
         FROM github_pr_links l JOIN issues i ON i.org_id = l.org_id AND i.id = l.issue_id
        WHERE l.org_id = $1 AND lower(l.owner) = lower($2) AND lower(l.repo) = lower($3) AND l.pr_number = $4`,
      [orgId, owner, repo, n],
      m,
    );
  }

  /** Links whose immutable identity is missing and due for another try (worker), oldest first; the attempt is counted. */
  claimUnreconciled(now: Date, limit: number): Promise<Array<{ org_id: string; owner: string; repo: string; pr_number: number }>> {
    return this.sql.rows(
      `UPDATE github_pr_links l SET identity_attempts = l.identity_attempts + 1,
              identity_next_at = CASE WHEN l.identity_attempts >= 9 THEN NULL ELSE $1::timestamptz + make_interval(mins => 5 * power(2, l.identity_attempts)::int) END
         FROM (SELECT org_id, id FROM github_pr_links WHERE pr_id IS NULL AND identity_next_at <= $1
                ORDER BY identity_next_at LIMIT $2 FOR UPDATE SKIP LOCKED) d
        WHERE l.org_id = d.org_id AND l.id = d.id
        RETURNING l.org_id, l.owner, l.repo, l.pr_number`,
      [now, limit],
    );
  }
}
