import { Errors } from '../../common/errors/domain-error';
import { isUniqueViolation } from '../../common/errors/pg-errors';
import { isCalendarDate } from '../../common/http/calendar-date';
import type { MilestoneStatus } from './entities/milestone.entity';

export const MILESTONE_STATUSES: readonly MilestoneStatus[] = ['planned', 'active', 'completed', 'cancelled'];

export interface MilestoneInput {
  name?: string;
  description?: string | null;
  targetDate?: string | null;
  status?: MilestoneStatus;
}

/**
 * Reads the milestone fields from a DTO: `target_date` with aliases `targetDate`, `due_date`,
 * `dueDate` (conflicting values 400); blank description = null.
 */
export function milestoneInput(dto: object): MilestoneInput {
  const d = dto as Record<string, unknown>;
  const out: MilestoneInput = {};
  if (d.name !== undefined) {
    if (typeof d.name !== 'string' || !d.name.trim()) throw Errors.validation('name must be a non-empty string');
    if (d.name.trim().length > 200) throw Errors.validation('name must be at most 200 characters');
    out.name = d.name.trim();
  }
  if (d.description !== undefined) {
    if (d.description !== null && typeof d.description !== 'string') throw Errors.validation('description must be a string or null');
    if (typeof d.description === 'string' && d.description.length > 20000) throw Errors.validation('description must be at most 20000 characters');
    out.description = d.description === null || d.description.trim() === '' ? null : d.description;
  }
  const target = d.target_date;
  if (target !== undefined) {
    if (target !== null && (typeof target !== 'string' || !isCalendarDate(target))) throw Errors.validation('target_date must be a date YYYY-MM-DD or null');
    out.targetDate = target as string | null;
  }
  if (d.status !== undefined) {
    if (typeof d.status !== 'string' || !(MILESTONE_STATUSES as readonly string[]).includes(d.status)) {
      throw Errors.validation(`status must be one of ${MILESTONE_STATUSES.join(', ')}`);
    }
    out.status = d.status as MilestoneStatus;
  }
  return out;
}

export const milestoneNameTaken = (name: string) => Errors.conflict(`A milestone named "${name}" already exists in this project`, 'milestone_name_taken');

export const isMilestoneNameViolation = (e: unknown): boolean => isUniqueViolation(e, 'milestones_name_uq');
