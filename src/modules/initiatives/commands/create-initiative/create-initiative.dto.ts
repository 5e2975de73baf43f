import { Allow } from 'class-validator';

/** Values are checked by initiativeInput (one readable 400 per problem). */
export class CreateInitiativeDto {
  /** 1..500 characters after trimming; required unless the legacy `name` is sent */
  @Allow() title?: string;
  /** Legacy alias of title (create only); both are stored from the trimmed value */
  @Allow() name?: string;
  /** At most 100000 characters; blank = none */
  @Allow() description?: string | null;
  /** Goal UUID (must be readable) */
  @Allow() goal_id?: string | null;
  /** Alias of goal_id */
  @Allow() goalId?: string | null;
  /** Owner member UUID (an active member of the organization) */
  @Allow() owner_id?: string | null;
  /** Alias of owner_id */
  @Allow() ownerId?: string | null;
  /** `proposed`, `active` (default), `completed`, `paused` or `cancelled` (exact) */
  @Allow() status?: string;
  /** YYYY-MM-DD; not after target_date */
  @Allow() start_date?: string | null;
  /** Alias of start_date */
  @Allow() startDate?: string | null;
  /** YYYY-MM-DD */
  @Allow() target_date?: string | null;
  /** Alias of target_date */
  @Allow() targetDate?: string | null;
  /** Primary project (edit/admin needed). Guests and project-scoped agents must send it; without it the initiative is organization-level (owners/admins only) */
  @Allow() project_id?: string | null;
  /** Alias of project_id */
  @Allow() projectId?: string | null;
}
