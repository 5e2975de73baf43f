import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';

export type ObservationKind = 'pull_request' | 'review' | 'check_run' | 'status' | 'workflow_run';

export interface ObservationRow {
  kind: ObservationKind;
  repo_key: string;
  repository_id: string | null;
  pr_number: number | null;
  head_sha: string | null;
  external_id: string;
  name: string | null;
  state: string | null;
  conclusion: string | null;
  app_id: string | null;
  actor_id: string | null;
  run_attempt: number | null;
  path: string | null;
  html_url: string | null;
  provider_event_id: string | null;
  provider_updated_at: Date | null;
  observed_at: Date;
}

/** One recorded verification projection (github_verification_items); its attention is the recipient's `verification.completed` notification. */
export interface VerificationRow {
  id: string;
  issue_id: string;
  repo_key: string;
  repository_id: string | null;
  pr_number: number;
  run_id: string;
  run_attempt: number;
  head_sha: string;
  workflow_name: string | null;
  conclusion: string;
  run_url: string;
  verification_event_id: string;
  created_at: Date;
}

const OBS_COLS = `kind, repo_key, repository_id::text, pr_number, head_sha, external_id, name, state, conclusion, app_id::text, actor_id::text,
  run_attempt, path, html_url, provider_event_id, provider_updated_at, observed_at`;

/** github_observations (what webhooks reported) and github_verification_items. */
@Injectable()
export class ObservationsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Records an observation; a later one of the same object replaces it unless it is older than the
   * stored one by the provider's own timestamp (out-of-order deliveries keep the newer state).
   */
  async upsert(orgId: string, id: string, o: Omit<ObservationRow, 'observed_at'>, now: Date, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO github_observations (org_id, id, kind, repo_key, repository_id, pr_number, head_sha, external_id, name, state, conclusion, app_id, actor_id,
                                        run_attempt, path, html_url, provider_event_id, provider_updated_at, observed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
       ON CONFLICT (org_id, kind, repo_key, external_id) DO UPDATE SET
         repository_id = coalesce(EXCLUDED.repository_id, github_observations.repository_id), pr_number = coalesce(EXCLUDED.pr_number, github_observations.pr_number),
         head_sha = EXCLUDED.head_sha, name = EXCLUDED.name, state = EXCLUDED.state, conclusion = EXCLUDED.conclusion, app_id = EXCLUDED.app_id,
         actor_id = EXCLUDED.actor_id, run_attempt = EXCLUDED.run_attempt, path = EXCLUDED.path, html_url = EXCLUDED.html_url,
         provider_event_id = EXCLUDED.provider_event_id, provider_updated_at = EXCLUDED.provider_updated_at, observed_at = EXCLUDED.observed_at
       WHERE github_observations.provider_updated_at IS NULL OR EXCLUDED.provider_updated_at IS NULL
          OR EXCLUDED.provider_updated_at >= github_observations.provider_updated_at`,
      [
        orgId,
        id,
        o.kind,
        o.repo_key,
        o.repository_id,
        o.pr_number,
        o.head_sha,
        o.external_id,
        o.name,
        o.state,
        o.conclusion,
        o.app_id,
        o.actor_id,
        o.run_attempt,
        o.path,
        o.html_url,
        o.provider_event_id,
        o.provider_updated_at,
        now,
      ],
      m,
    );
  }

  /** Observations of a PR: the PR itself and reviews by number, checks/statuses/workflow runs by the given head SHAs (bounded). */
  forPr(orgId: string, repoKey: string, n: number, heads: string[]): Promise<ObservationRow[]> {
    return this.sql.rows<ObservationRow>(
      `SELECT ${OBS_COLS} FROM github_observations
        WHERE org_id = $1 AND repo_key = $2 AND ((kind IN ('pull_request', 'review') AND pr_number = $3) OR (kind IN ('check_run', 'status', 'workflow_run') AND head_sha = ANY($4::text[])))
        ORDER BY observed_at DESC LIMIT 1000`,
      [orgId, repoKey, n, heads],
    );
  }

  /** Records one verification projection (recipient and exact repository, PR, run attempt, head); false when it was already recorded. */
  async insertVerification(orgId: string, v: Omit<VerificationRow, 'created_at'> & { recipient_member_id: string }, now: Date, m?: Tx): Promise<boolean> {
    const n = await this.sql.run(
      `INSERT INTO github_verification_items (org_id, id, recipient_member_id, issue_id, repo_key, repository_id, pr_number, run_id, run_attempt, head_sha,
                                              workflow_name, conclusion, run_url, verification_event_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) ON CONFLICT DO NOTHING`,
      [
        orgId,
        v.id,
        v.recipient_member_id,
        v.issue_id,
        v.repo_key,
        v.repository_id,
        v.pr_number,
        v.run_id,
        v.run_attempt,
        v.head_sha,
        v.workflow_name,
        v.conclusion,
        v.run_url,
        v.verification_event_id,
        now,
      ],
      m,
    );
    return n > 0;
  }
}
