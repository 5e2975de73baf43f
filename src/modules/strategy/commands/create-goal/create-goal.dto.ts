import { Allow } from 'class-validator';

/** Values are checked by goalInput (strategy-input.ts): one readable 400 per problem. */
export class CreateGoalDto {
  /** 1..500 characters (trimmed) */
  @Allow() title: string;
  /** Up to 100000 characters; blank = none */
  @Allow() description?: string | null;
  /** Active member of the organization */
  @Allow() owner_id?: string | null;
  /** Alias of owner_id */
  @Allow() ownerId?: string | null;
  /** `active` (default), `achieved`, `missed`, `paused`, `cancelled` */
  @Allow() status?: 'active' | 'achieved' | 'missed' | 'paused' | 'cancelled';
  /** YYYY-MM-DD */
  @Allow() target_date?: string | null;
  /** Alias of target_date */
  @Allow() targetDate?: string | null;
  /** Bind the goal to a project (its access applies); null = organization-level */
  @Allow() project_id?: string | null;
  /** Alias of project_id */
  @Allow() projectId?: string | null;
}
