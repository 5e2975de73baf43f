import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The automation outbox. An issue change whose event matches enabled rules writes one job row in
 * its own transaction (id = the event id, the event's facts in `event`). The run of the job claims
 * the row (FOR UPDATE SKIP LOCKED), writes the rule runs and their effects and deletes the row in
 * one transaction: a job exists until its runs committed, and a retry never repeats them. The API
 * runs a job right after the change commits; the worker's drain runs the rows left behind.
 */
export class AutomationJobs1765300000000 implements MigrationInterface {
  name = 'AutomationJobs1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE automation_jobs (
        org_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        issue_id uuid NOT NULL,
        event jsonb NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        last_error text CHECK (length(last_error) <= 1000),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (org_id, id)
      );
      -- the drain's scan: oldest first
      CREATE INDEX automation_jobs_created_idx ON automation_jobs (created_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS automation_jobs;');
  }
}
