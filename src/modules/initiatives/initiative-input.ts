import { Errors } from '../../common/errors/domain-error';
import { date, field, oneOf, text, uuidOrNull } from './fields';

export const INITIATIVE_STATUSES = ['proposed', 'active', 'completed', 'paused', 'cancelled'] as const;
export type InitiativeStatus = (typeof INITIATIVE_STATUSES)[number];

export interface InitiativeInput {
  title?: string;
  description?: string | null;
  goalId?: string | null;
  ownerId?: string | null;
  status?: InitiativeStatus;
  startDate?: string | null;
  targetDate?: string | null;
  projectId?: string | null;
}

/**
 * Initiative body. Create takes `title` or the legacy `name` (trimmed; both stored); updates take
 * `title` only (`name` on update is a 400, so a stale client learns it). Aliases: goalId,
 * ownerId, targetDate, startDate, projectId.
 */
export function initiativeInput(body: object, mode: 'create' | 'update'): InitiativeInput {
  const out: InitiativeInput = {};
  if (mode === 'create') {
    const title = text(body, 'title', { max: 500 });
    const name = text(body, 'name', { max: 500 });
    if (title !== undefined && name !== undefined && title !== name) throw Errors.validation('title and name disagree; send title');
    out.title = (title ?? name) as string | undefined;
    if (out.title === undefined) throw Errors.validation('title is required');
  } else {
    if (field(body, 'name') !== undefined) throw Errors.validation('Updates take title; name is accepted on create only');
    const title = text(body, 'title', { max: 500 });
    if (title !== undefined) out.title = title as string;
  }
  const description = field(body, 'description');
  if (description !== undefined) {
    if (description !== null && typeof description !== 'string') throw Errors.validation('description must be a string or null');
    if (typeof description === 'string' && description.length > 100000) throw Errors.validation('description must be at most 100000 characters');
    out.description = description === null || !description.trim() ? null : description;
  }
  out.goalId = uuidOrNull(body, 'goal_id');
  out.ownerId = uuidOrNull(body, 'owner_id');
  out.projectId = uuidOrNull(body, 'project_id');
  out.status = oneOf(body, 'status', INITIATIVE_STATUSES);
  out.startDate = date(body, 'start_date');
  out.targetDate = date(body, 'target_date');
  if (out.startDate && out.targetDate && out.startDate > out.targetDate) throw Errors.validation('start_date must not be after target_date');
  for (const k of Object.keys(out) as Array<keyof InitiativeInput>) if (out[k] === undefined) delete out[k];
  return out;
}
