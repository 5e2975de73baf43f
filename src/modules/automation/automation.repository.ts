import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { TriggerEvent } from './automation-rule.model';
import type { AutomationRuleEntity, AutomationRuleRunEntity, RunStatus } from './entities/automation-rule.entity';

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

const RULE_COLUMNS = `r.org_id AS "orgId", r.id, r.project_id AS "projectId", r.name, r.trigger_event AS "triggerEvent", r.conditions, r.actions,
  r.enabled, r.created_by_member_id AS "createdByMemberId", r.created_at AS "createdAt", r.updated_at AS "updatedAt"`;
const RUN_COLUMNS = `org_id AS "orgId", id, rule_id AS "ruleId", event_id AS "eventId", trigger_event AS "triggerEvent", issue_id AS "issueId", status,
  actions, error_code AS "errorCode", automation_depth AS "automationDepth", started_at AS "startedAt", finished_at AS "finishedAt"`;

/** Automation rules, their runs and the automation job outbox. */
@Injectable()
export class AutomationRepository {
  constructor(private readonly sql: Sql) {}

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

  /** The issue's id and project, or undefined when it is gone. */
  issueScope(orgId: string, issueId: string, m?: Tx): Promise<{ id: string; project_id: string | null } | undefined> {
    return this.sql.row<{ id: string; project_id: string | null }>('SELECT id, project_id FROM issues WHERE org_id = $1 AND id = $2', [orgId, issueId], m);
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
    await this.sql.run('INSERT INTO automation_jobs (org_id, id, issue_id, event) VALUES ($1, $2, $3, $4::jsonb) ON CONFLICT DO NOTHING', [orgId, id, issueId, JSON.stringify(event)], m);
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
}
