import { Allow } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** Values are checked by initiativeInput (one readable 400 per problem). */
export class CreateInitiativeDto {
  /** 1..500 characters after trimming; required unless the legacy `name` is sent */
  @Allow() title?: string;
  /** Legacy alias of title (create only); both are stored from the trimmed value */
  @Allow() name?: string;
  /** At most 100000 characters; blank = none */
  @Allow() description?: string | null;
  /** Goal UUID (must be readable) */
  @Alias('goalId') goal_id?: string | null;
  /** Owner member UUID (an active member of the organization) */
  @Alias('ownerId') owner_id?: string | null;
  /** `proposed`, `active` (default), `completed`, `paused` or `cancelled` (exact) */
  @Allow() status?: string;
  /** YYYY-MM-DD; not after target_date */
  @Alias('startDate') start_date?: string | null;
  /** YYYY-MM-DD */
  @Alias('targetDate') target_date?: string | null;
  /** Primary project (edit/admin needed). Guests and project-scoped agents must send it; without it the initiative is organization-level (owners/admins only) */
  @Alias('projectId') project_id?: string | null;
}
