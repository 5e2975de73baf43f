import { Allow } from 'class-validator';

export class TargetScopeDto {
  /** `initiative` (default: the initiative's projects, followed live) or `projects` */
  @Allow() type: 'initiative' | 'projects';
  /** For `projects`: 1..100 project UUIDs, each linked to the initiative, each writable by the caller */
  @Allow() project_ids?: string[];
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
  @Allow() unit_label?: string | null;
  @Allow() unitLabel?: string | null;
  /** Starting value of a progress target (alias `baseline`) */
  @Allow() baseline_value?: number | null;
  @Allow() baselineValue?: number | null;
  @Allow() baseline?: number | null;
  /** Progress: current value. Gate: completed items (whole, ≥ 0) */
  @Allow() current_value?: number | null;
  @Allow() currentValue?: number | null;
  /** Progress: the value to reach. Gate: items needed (whole, ≥ 0) */
  @Allow() target_value?: number | null;
  @Allow() targetValue?: number | null;
  /** `increase` (default), `decrease` or `maintain` */
  @Allow() target_direction?: 'increase' | 'decrease' | 'maintain';
  @Allow() targetDirection?: 'increase' | 'decrease' | 'maintain';
  /** YYYY-MM-DD (aliases targetDate, due_date, dueDate) */
  @Allow() target_date?: string | null;
  @Allow() targetDate?: string | null;
  @Allow() due_date?: string | null;
  @Allow() dueDate?: string | null;
  /** Due-soon window before target_date, 0..365 days (default 7) */
  @Allow() due_soon_days?: number;
  @Allow() dueSoonDays?: number;
  /** Typed scope deciding who may read and change the target */
  @Allow() scope?: TargetScopeDto;
  /** Flat alias of scope.type */
  @Allow() scope_type?: 'initiative' | 'projects';
  @Allow() scopeType?: 'initiative' | 'projects';
  /** Flat alias of scope.project_ids */
  @Allow() scope_project_ids?: string[];
  @Allow() scopeProjectIds?: string[];
}
