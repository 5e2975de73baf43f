import { Allow } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** Values are checked by goalInput (strategy-input.ts): one readable 400 per problem. */
export class CreateGoalDto {
  /** 1..500 characters (trimmed) */
  @Allow() title: string;
  /** Up to 100000 characters; blank = none */
  @Allow() description?: string | null;
  /** Active member of the organization */
  @Alias('ownerId') owner_id?: string | null;
  /** `active` (default), `achieved`, `missed`, `paused`, `cancelled` */
  @Allow() status?: 'active' | 'achieved' | 'missed' | 'paused' | 'cancelled';
  /** YYYY-MM-DD */
  @Alias('targetDate') target_date?: string | null;
  /** Bind the goal to a project (its access applies); null = organization-level */
  @Alias('projectId') project_id?: string | null;
}
