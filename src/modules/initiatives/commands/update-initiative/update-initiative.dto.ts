import { Allow } from 'class-validator';

/** Only the fields sent change; null clears. `name` is refused (updates use title). */
export class UpdateInitiativeDto {
  /** 1..500 characters after trimming; the legacy name follows it */
  @Allow() title?: string;
  /** Refused with 400: updates use title */
  @Allow() name?: string;
  @Allow() description?: string | null;
  @Allow() goal_id?: string | null;
  @Allow() goalId?: string | null;
  @Allow() owner_id?: string | null;
  @Allow() ownerId?: string | null;
  /** `proposed`, `active`, `completed`, `paused` or `cancelled` */
  @Allow() status?: string;
  @Allow() start_date?: string | null;
  @Allow() startDate?: string | null;
  @Allow() target_date?: string | null;
  @Allow() targetDate?: string | null;
  /** Moving the primary project needs edit on the old and the new project (null = unbind: every remaining project, or owner/admin) */
  @Allow() project_id?: string | null;
  @Allow() projectId?: string | null;
}
