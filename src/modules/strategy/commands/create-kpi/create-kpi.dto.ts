import { Allow } from 'class-validator';

/** Values are checked by kpiInput (strategy-input.ts): one readable 400 per problem. */
export class CreateKpiDto {
  /** 1..200 characters (trimmed) */
  @Allow() name: string;
  /** Up to 100000 characters; blank = none */
  @Allow() description?: string | null;
  /** Goal of the organization */
  @Allow() goal_id?: string | null;
  /** Alias of goal_id */
  @Allow() goalId?: string | null;
  /** Bind the KPI to a project (its access applies); null = organization-level */
  @Allow() project_id?: string | null;
  /** Alias of project_id */
  @Allow() projectId?: string | null;
  /** `count` (default), `percentage`, `currency`, `duration`, `ratio`, `custom` */
  @Allow() unit?: string;
  /** Up to 100 characters */
  @Allow() unit_label?: string | null;
  /** Alias of unit_label */
  @Allow() unitLabel?: string | null;
  /** Start of the pace line (finite number) */
  @Allow() baseline_value?: number | null;
  /** Alias of baseline_value */
  @Allow() baselineValue?: number | null;
  /** Finite number; calculated for formula KPIs */
  @Allow() target_value?: number | null;
  /** Alias of target_value */
  @Allow() targetValue?: number | null;
  /** YYYY-MM-DD; pace uses the goal's date when empty */
  @Allow() target_date?: string | null;
  /** Alias of target_date */
  @Allow() targetDate?: string | null;
  /** `increase` (default), `decrease`, `maintain` */
  @Allow() target_direction?: string;
  /** Alias of target_direction */
  @Allow() targetDirection?: string;
  /** `manual` (default), `webhook`, `api_poll`, `formula` */
  @Allow() source_type?: string;
  /** Alias of source_type */
  @Allow() sourceType?: string;
  /** Formula KPIs: `{ formula: "goal_linked_issue_completion", done_statuses: [...] }` */
  @Allow() source_config?: Record<string, unknown> | null;
  /** Alias of source_config */
  @Allow() sourceConfig?: Record<string, unknown> | null;
  /** Positive integer */
  @Allow() stale_after_hours?: number | null;
  /** Alias of stale_after_hours */
  @Allow() staleAfterHours?: number | null;
}
