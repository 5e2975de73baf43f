import { Allow } from 'class-validator';

/** Values are checked by milestoneInput (one readable 400 per problem). */
export class CreateMilestoneDto {
  /** 1..200 characters (trimmed); unique in the project case-insensitively (409 milestone_name_taken) */
  @Allow() name: string;
  /** Free text, at most 20000 characters; blank = none */
  @Allow() description?: string | null;
  /** YYYY-MM-DD or null */
  @Allow() target_date?: string | null;
  /** Alias of target_date */
  @Allow() targetDate?: string | null;
  /** Alias of target_date */
  @Allow() due_date?: string | null;
  /** Alias of target_date */
  @Allow() dueDate?: string | null;
  /** `planned` (default), `active`, `completed` or `cancelled` */
  @Allow() status?: 'planned' | 'active' | 'completed' | 'cancelled';
}
