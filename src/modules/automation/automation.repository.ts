import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { TriggerEvent } from './automation-rule.model';
import type { AutomationRuleEntity, AutomationRuleRunEntity, RunStatus } from './entities/automation-rule.entity';
import type { IssueCoreRow } from '../issues/issues.repository';

/** A rule as the runner and the lists use it (the entity's shape). */
export type RuleRow = AutomationRuleEntity;

/** What a run sees of its rule and issue now (the rule may have changed since it was matched). */
export interface LiveRuleRow {
  enabled: boolean;
  project_id: string | null;
  issue_project_id: string | null;
  issue_exists: boolean;
}

/** A run as stored. */
export interface NewRunRow {
  orgId: string;
  id: string;
  ruleId: string;
  eventId: string;
  triggerEvent: TriggerEvent;
  issueId: string;
  status: RunStatus;
  actions: string[];
  errorCode: string | null;
  automationDepth: number;
  startedAt: Date;
  finishedAt: Date;
}

/** A pending automation job (the outbox row of one issue change). */
export interface JobRow {
  org_id: string;
  id: string;
  event: Record<string, unknown>;
  attempts: number;
}

/** What an `automation.action` body says about the issue and its project. */
export interface PayloadIssueRow extends IssueCoreRow {
  due_date: string | null;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
  project_key: string | null;
  project_name: string | null;
  project_slug: string | null;
  assignee_ids: string[];
  /** Direct artifact links of the issue, counted up to 1,001 (more than 1,000: the payload omits it). */
  artifacts: number;
}

const RULE_COLUMNS = `r.org_id AS "orgId", r.id, r.project_id AS "projectId", r.name, r.trigger_event AS "triggerEvent", r.conditions, r.actions,
  r.enabled, r.created_by_member_id AS "createdByMemberId", r.created_at AS "createdAt", r.updated_at AS "updatedAt"`;
const RUN_COLUMNS = `org_id AS "orgId", id, rule_id AS "ruleId", event_id AS "eventId", trigger_event AS "triggerEvent", issue_id AS "issueId", status,
  actions, error_code AS "errorCode", automation_depth AS "automationDepth", started_at AS "startedAt", finished_at AS "finishedAt"`;

/** Automation rules, their runs and the automation job outbox. */
@Injectable()
export class AutomationRepository {
  constructor(private readonly sql: Sql) {}

  /** Enabled rules of the organization with one of `triggers`, org-wide or of one of `projectIds` (oldest first). */
  enabledRulesForAny(orgId: string, triggers: string[], projectIds: string[], m?: Tx): Promise<RuleRow[]> {
    return this.sql.rows<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM automation_rules r
        WHERE r.org_id = $1 AND r.enabled AND r.trigger_event = ANY($2::text[]) AND (r.project_id IS NULL OR r.project_id = ANY($3::uuid[]))
        ORDER BY r.created_at, r.id`,
      [orgId, triggers, projectIds],
      m,
    );
  }

  /** Enabled rules of the organization (org-wide and of `projectId`) with one of `triggers`, oldest first. */
  enabledRulesFor(orgId: string, triggers: string[], projectId: string | null, m?: Tx): Promise<RuleRow[]> {
    return this.sql.rows<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM automation_rules r
        WHERE r.org_id = $1 AND r.enabled AND r.trigger_event = ANY($2::text[]) AND (r.project_id IS NULL OR r.project_id = $3)
        ORDER BY r.created_at, r.id`,
      [orgId, triggers, projectId],
      m,
    );
  }

  /** The rule's current state and the issue's current project (one row, or undefined when the rule is gone). */
  live(orgId: string, ruleId: string, issueId: string, m?: Tx): Promise<LiveRuleRow | undefined> {
    return this.sql.row<LiveRuleRow>(
      `SELECT r.enabled, r.project_id, i.project_id AS issue_project_id, i.id IS NOT NULL AS issue_exists
         FROM automation_rules r LEFT JOIN issues i ON i.org_id = r.org_id AND i.id = $3
        WHERE r.org_id = $1 AND r.id = $2`,
      [orgId, ruleId, issueId],
      m,
    );
  }

  /** Stores a run (a second run of the same rule and event is ignored) and keeps the newest `keep` runs of the rule. */
  async recordRun(r: NewRunRow, keep: number, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO automation_rule_runs (org_id, id, rule_id, event_id, trigger_event, issue_id, status, actions, error_code, automation_depth, started_at, finished_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text[], $9, $10, $11, $12)
       ON CONFLICT (org_id, rule_id, event_id) DO NOTHING`,
      [r.orgId, r.id, r.ruleId, r.eventId, r.triggerEvent, r.issueId, r.status, r.actions, r.errorCode, r.automationDepth, r.startedAt, r.finishedAt],
      m,
    );
    await this.sql.run(
      `DELETE FROM automation_rule_runs WHERE org_id = $1 AND rule_id = $2 AND id IN (
         SELECT id FROM automation_rule_runs WHERE org_id = $1 AND rule_id = $2 ORDER BY started_at DESC, id DESC OFFSET $3)`,
      [r.orgId, r.ruleId, keep],
      m,
    );
  }

  /** The newest `limit` runs of a rule. */
  runsOf(orgId: string, ruleId: string, limit: number, m?: Tx): Promise<AutomationRuleRunEntity[]> {
    return this.sql.rows<AutomationRuleRunEntity>(
      `SELECT ${RUN_COLUMNS} FROM automation_rule_runs WHERE org_id = $1 AND rule_id = $2 ORDER BY started_at DESC, id DESC LIMIT $3`,
      [orgId, ruleId, limit],
      m,
    );
  }

  /** Writes the job of one issue change (in the change's transaction). */
  async insertJob(orgId: string, id: string, issueId: string, event: unknown, m?: Tx): Promise<void> {
    await this.sql.run(
      'INSERT INTO automation_jobs (org_id, id, issue_id, event) VALUES ($1, $2, $3, $4::jsonb) ON CONFLICT DO NOTHING',
      [orgId, id, issueId, JSON.stringify(event)],
      m,
    );
  }

  /** Claims a pending job for the caller's transaction (undefined when it is done or another run holds it). */
  claimJob(orgId: string, id: string, m: Tx): Promise<JobRow | undefined> {
    return this.sql.row<JobRow>('SELECT org_id, id, event, attempts FROM automation_jobs WHERE org_id = $1 AND id = $2 FOR UPDATE SKIP LOCKED', [orgId, id], m);
  }

  /** Removes a job whose runs are written (same transaction as the runs). */
  async deleteJob(orgId: string, id: string, m: Tx): Promise<void> {
    await this.sql.run('DELETE FROM automation_jobs WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** Counts a failed attempt of a job (its runs rolled back). */
  async failJob(orgId: string, id: string, error: string, m?: Tx): Promise<void> {
    await this.sql.run('UPDATE automation_jobs SET attempts = attempts + 1, last_error = left($3, 1000) WHERE org_id = $1 AND id = $2', [orgId, id, error], m);
  }

  /** Jobs older than `graceMs` with fewer than `maxAttempts` attempts, oldest first. */
  dueJobs(now: Date, graceMs: number, maxAttempts: number, limit: number, m?: Tx): Promise<Array<{ org_id: string; id: string }>> {
    return this.sql.rows<{ org_id: string; id: string }>(
      `SELECT org_id, id FROM automation_jobs
        WHERE created_at <= $1::timestamptz - make_interval(secs => $2::double precision / 1000) AND attempts < $3
        ORDER BY created_at LIMIT $4`,
      [now, graceMs, maxAttempts, limit],
      m,
    );
  }

  /** One rule of the organization, or undefined; `lock` takes it FOR UPDATE. */
  findRule(orgId: string, id: string, lock: boolean, m?: Tx): Promise<RuleRow | undefined> {
    return lock
      ? this.sql.row<RuleRow>(`SELECT ${RULE_COLUMNS} FROM automation_rules r WHERE r.org_id = $1 AND r.id = $2 FOR UPDATE`, [orgId, id], m)
      : this.sql.row<RuleRow>(`SELECT ${RULE_COLUMNS} FROM automation_rules r WHERE r.org_id = $1 AND r.id = $2`, [orgId, id], m);
  }

  /** One page of the rules readable with `readable` project ids ('all' or a list; org-wide rules always), oldest first, and their total. */
  async listRules(
    orgId: string,
    readable: 'all' | string[],
    projectId: string | undefined,
    limit: number,
    offset: number,
    m?: Tx,
  ): Promise<{ rows: RuleRow[]; total: number }> {
    const where = `r.org_id = $1 AND ($2::boolean OR r.project_id IS NULL OR r.project_id = ANY($3::uuid[])) AND ($4::uuid IS NULL OR r.project_id = $4)`;
    const params = [orgId, readable === 'all', readable === 'all' ? [] : readable, projectId ?? null];
    const total = (await this.sql.row<{ n: number }>(`SELECT count(*)::int AS n FROM automation_rules r WHERE ${where}`, params, m))!.n;
    const rows = await this.sql.rows<RuleRow>(
      `SELECT ${RULE_COLUMNS} FROM automation_rules r WHERE ${where} ORDER BY r.created_at, r.id LIMIT $5 OFFSET $6`,
      [...params, limit, offset],
      m,
    );
    return { rows, total };
  }

  /** Stores a new rule. */
  async insertRule(r: RuleRow, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO automation_rules (org_id, id, project_id, name, trigger_event, conditions, actions, enabled, created_by_member_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, $10, $11)`,
      [
        r.orgId,
        r.id,
        r.projectId,
        r.name,
        r.triggerEvent,
        JSON.stringify(r.conditions),
        JSON.stringify(r.actions),
        r.enabled,
        r.createdByMemberId,
        r.createdAt,
        r.updatedAt,
      ],
      m,
    );
  }

  /** Replaces a rule's definition. */
  async updateRule(r: RuleRow, m?: Tx): Promise<void> {
    await this.sql.run(
      `UPDATE automation_rules SET project_id = $3, name = $4, trigger_event = $5, conditions = $6::jsonb, actions = $7::jsonb, enabled = $8, updated_at = $9
        WHERE org_id = $1 AND id = $2`,
      [r.orgId, r.id, r.projectId, r.name, r.triggerEvent, JSON.stringify(r.conditions), JSON.stringify(r.actions), r.enabled, r.updatedAt],
      m,
    );
  }

  /** Deletes a rule (its runs go with it: foreign key cascade). */
  async deleteRule(orgId: string, id: string, m?: Tx): Promise<void> {
    await this.sql.run('DELETE FROM automation_rules WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** The issue and project fields of an `automation.action` delivery body, or undefined. */
  payloadIssue(orgId: string, issueId: string, m?: Tx): Promise<PayloadIssueRow | undefined> {
    return this.sql.row<PayloadIssueRow>(
      `SELECT i.id, i.number, i.title, i.status, i.priority, i.project_id, i.due_date::text AS due_date, i.archived_at, i.created_at, i.updated_at,
              p.key AS project_key, p.name AS project_name, p.slug AS project_slug,
              COALESCE((SELECT array_agg(a.member_id ORDER BY a.position, a.created_at, a.member_id) FROM issue_assignees a
                         WHERE a.org_id = i.org_id AND a.issue_id = i.id), '{}') AS assignee_ids,
              (SELECT count(*)::int FROM (SELECT 1 FROM artifact_links l WHERE l.org_id = i.org_id AND l.issue_id = i.id LIMIT 1001) x) AS artifacts
         FROM issues i LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id
        WHERE i.org_id = $1 AND i.id = $2`,
      [orgId, issueId],
      m,
    );
  }
}
