import { Allow } from 'class-validator';

/** The child fields a subtask PATCH changes (validated as PATCH /issues/{id}). */
export class UpdateSubtaskDto {
  /** 1..500 characters */
  @Allow() title?: string;
  /** Markdown, or null */
  @Allow() description?: string | null;
  /** A status of the child's project */
  @Allow() status?: string;
  /** 0..3 */
  @Allow() priority?: number;
  /** Member id or null */
  @Allow() assigneeId?: string | null;
  /** Alias of assigneeId */
  @Allow() assignee_id?: string | null;
  /** Member ids, primary first */
  @Allow() assigneeIds?: string[] | null;
  /** Alias of assigneeIds */
  @Allow() assignee_ids?: string[] | null;
  /** YYYY-MM-DD or null */
  @Allow() startDate?: string | null;
  /** Alias of startDate */
  @Allow() start_date?: string | null;
  /** YYYY-MM-DD or null */
  @Allow() dueDate?: string | null;
  /** Alias of dueDate */
  @Allow() due_date?: string | null;
}
