import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import type { IssueEntity } from './entities/issue.entity';
import { IssuesRepository } from './issues.repository';
import { BoardRepository } from '../projects/board.repository';
import { RecurrenceRepository } from './recurrence.repository';
import { dateOnly, nextDueDate, recurrenceStateOf, utcDate } from './recurrence.rules';

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/**
 * Generates the next occurrence of a recurring issue. Every call runs inside the caller's
 * transaction; the unique index `issues_recurrence_once_uq` (org_id, recurrence_source_id) makes
 * an occurrence's successor exist at most once, even when two transactions race.
 */
@Injectable()
export class RecurrenceService {
  constructor(
    private readonly clock: Clock,
    private readonly occurrences: RecurrenceRepository,
    private readonly issues: IssuesRepository,
    private readonly board: BoardRepository,
  ) {}

  /**
   * Completion mode: called inside the update transaction when a recurring issue moves to `done`.
   * Returns the new issue, or null when nothing was created (not recurring, schedule mode, or the
   * successor already exists). The caller publishes `issue.created` for the returned issue after commit.
   */
  async onCompleted(m: EntityManager, issue: IssueEntity): Promise<IssueEntity | null> {
    const state = recurrenceStateOf(issue);
    if (!state || state.recurrenceMode !== 'completion') return null;
    const base = issue.dueDate ? dateOnly(issue.dueDate) : utcDate(this.clock.now());
    const dueDate = nextDueDate(state.recurrenceType, state.recurrenceInterval, base);
    if (!dueDate) return null; // past 9999-12-31: the series ends
    return this.createOccurrence(m, issue, { dueDate, nextRunAt: null });
  }

  /**
   * Creates the successor of `source` (title, description, project, priority, team, milestone,
   * parent, assignees, labels, recurrence settings, creator) with the given due date, the project's
   * first board column as status (`backlog` when projectless or without columns) and a fresh number.
   * A start date moves with the due date (same gap). Null when `source` already has a successor.
   * Must run inside a transaction (it uses a savepoint so a lost race does not abort the caller).
   */
  async createOccurrence(m: EntityManager, source: IssueEntity, opts: { dueDate: string; nextRunAt: Date | null }): Promise<IssueEntity | null> {
    const orgId = source.orgId;
    if (await this.occurrences.hasSuccessor(orgId, source.id, m)) return null;

    await this.occurrences.savepoint('recurrence_occurrence', m);
    try {
      let status = 'backlog';
      if (source.projectId) {
        status = (await this.board.firstColumnKey(orgId, source.projectId, m)) ?? status;
      }
      let startDate: string | null = null;
      if (source.startDate && source.dueDate) {
        startDate = addDays(opts.dueDate, -daysBetween(dateOnly(source.startDate), dateOnly(source.dueDate)));
      }
      const number = await this.issues.nextNumber(orgId, source.projectId, m);
      const id = randomUUID();
      const inserted = await this.occurrences.insertOccurrence(
        { orgId, id, number, status, startDate, dueDate: opts.dueDate, nextRunAt: opts.nextRunAt, source },
        m,
      );
      if (!inserted) {
        // lost a race: undo the number too, so numbering stays gap-free
        await this.occurrences.rollbackTo('recurrence_occurrence', m);
        await this.occurrences.release('recurrence_occurrence', m);
        return null;
      }
      await this.occurrences.copyAssignees(orgId, source.id, id, m);
      await this.occurrences.copyLabels(orgId, source.id, id, m);
      await this.occurrences.release('recurrence_occurrence', m);
      const created = await this.issues.findById(orgId, id, m);
      if (!created) throw new Error(`occurrence ${id} vanished after its insert`);
      return created;
    } catch (e) {
      await this.occurrences.rollbackTo('recurrence_occurrence', m).catch(() => undefined);
      throw e;
    }
  }
}
