import { Allow } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** Values are checked by milestoneInput (one readable 400 per problem). */
export class CreateMilestoneDto {
  /** 1..200 characters (trimmed); unique in the project case-insensitively (409 milestone_name_taken) */
  @Allow() name: string;
  /** Free text, at most 20000 characters; blank = none */
  @Allow() description?: string | null;
  /** YYYY-MM-DD or null */
  @Alias('targetDate', 'due_date', 'dueDate') target_date?: string | null;
  /** `planned` (default), `active`, `completed` or `cancelled` */
  @Allow() status?: 'planned' | 'active' | 'completed' | 'cancelled';
}
