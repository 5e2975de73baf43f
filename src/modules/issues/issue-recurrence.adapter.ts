import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyRecurrence, recurrenceColumns, recurrenceResponse, recurrenceStateOf } from './recurrence.rules';
import { RecurrenceService } from './recurrence.service';
import type { IssueEntity } from './entities/issue.entity';
import type { RecurrenceInputFields } from './issue-input';

export type RecurrenceStateFields = Pick<
  IssueEntity,
  'recurrenceType' | 'recurrenceInterval' | 'recurrenceDays' | 'recurrenceMode' | 'recurrenceTime' | 'recurrenceTimezone' | 'recurrenceNextRunAt'
>;

/**
 * Thin adapter over the recurrence rules (recurrence.rules.ts): `applyRecurrence`, `recurrenceResponse`
 * and `RecurrenceService.onCompleted`, in the issue column shape.
 */
@Injectable()
export class IssueRecurrenceAdapter {
  constructor(private readonly service: RecurrenceService) {}

  /**
   * The recurrence columns after a create (current null) or an update; an update without
   * recurrence fields keeps the stored schedule.
   */
  apply(current: IssueEntity | null, input: RecurrenceInputFields, hasInput: boolean, dueDate: string | null, now: Date): RecurrenceStateFields {
    const cur = current ? recurrenceStateOf(current) : null;
    if (!hasInput) return current ? pickState(current) : recurrenceColumns(null);
    return recurrenceColumns(applyRecurrence(cur, input, dueDate, now));
  }

  response(issue: IssueEntity): ReturnType<typeof recurrenceResponse> {
    return recurrenceResponse(issue);
  }

  /** Next occurrence of a completion-mode recurring issue that just moved to `done` (same transaction). */
  onCompleted(m: EntityManager, issue: IssueEntity): Promise<IssueEntity | null> {
    return this.service.onCompleted(m, issue);
  }
}

export function pickState(i: IssueEntity): RecurrenceStateFields {
  return {
    recurrenceType: i.recurrenceType,
    recurrenceInterval: i.recurrenceInterval,
    recurrenceDays: i.recurrenceDays,
    recurrenceMode: i.recurrenceMode,
    recurrenceTime: i.recurrenceTime,
    recurrenceTimezone: i.recurrenceTimezone,
    recurrenceNextRunAt: i.recurrenceNextRunAt,
  };
}
