import { Allow } from 'class-validator';
import { Alias, AliasesIn } from '../../../../common/http/aliases';

export class TargetScopeDto {
  /** `initiative` (default: the initiative's projects, followed live) or `projects` */
  @Allow() type: 'initiative' | 'projects';
  /** For `projects`: 1..100 project UUIDs, each linked to the initiative, each writable by the caller */
  @Alias('projectIds') project_ids?: string[];
}

/** Values are checked by targetInput (one readable 400 per problem). */
export class CreateTargetDto {
  /** 1..500 characters after trimming */
  @Allow() title: string;
  /** At most 100000 characters */
  @Allow() description?: string | null;
  /** `progress` (default) or `gate` */
  @Allow() mode?: 'progress' | 'gate';
  /** `active` (default), `completed` or `cancelled` */
  @Allow() status?: 'active' | 'completed' | 'cancelled';
  /** `count` (default), `percentage`, `currency`, `duration`, `ratio` or `custom` */
  @Allow() unit?: string;
  /** At most 100 characters, e.g. "retailers" */
  @Alias('unitLabel') unit_label?: string | null;
  /** Starting value of a progress target */
  @Alias('baselineValue', 'baseline') baseline_value?: number | null;
  /** Progress: current value. Gate: completed items (whole, ≥ 0) */
  @Alias('currentValue') current_value?: number | null;
  /** Progress: the value to reach. Gate: items needed (whole, ≥ 0) */
  @Alias('targetValue') target_value?: number | null;
  /** `increase` (default), `decrease` or `maintain` */
  @Alias('targetDirection') target_direction?: 'increase' | 'decrease' | 'maintain';
  /** YYYY-MM-DD */
  @Alias('targetDate', 'due_date', 'dueDate') target_date?: string | null;
  /** Due-soon window before target_date, 0..365 days (default 7) */
  @Alias('dueSoonDays') due_soon_days?: number;
  /** Typed scope deciding who may read and change the target */
  @AliasesIn(() => TargetScopeDto) scope?: TargetScopeDto;
  /** Flat alias of scope.type */
  @Alias('scopeType') scope_type?: 'initiative' | 'projects';
  /** Flat alias of scope.project_ids */
  @Alias('scopeProjectIds') scope_project_ids?: string[];
}
