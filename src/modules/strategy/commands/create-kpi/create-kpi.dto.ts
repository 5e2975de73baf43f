import { Allow } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** Values are checked by kpiInput (strategy-input.ts): one readable 400 per problem. */
export class CreateKpiDto {
  /** 1..200 characters (trimmed) */
  @Allow() name: string;
  /** Up to 100000 characters; blank = none */
  @Allow() description?: string | null;
  /** Goal of the organization */
  @Alias('goalId') goal_id?: string | null;
  /** Bind the KPI to a project (its access applies); null = organization-level */
  @Alias('projectId') project_id?: string | null;
  /** `count` (default), `percentage`, `currency`, `duration`, `ratio`, `custom` */
  @Allow() unit?: string;
  /** Up to 100 characters */
  @Alias('unitLabel') unit_label?: string | null;
  /** Start of the pace line (finite number) */
  @Alias('baselineValue') baseline_value?: number | null;
  /** Finite number; calculated for formula KPIs */
  @Alias('targetValue') target_value?: number | null;
  /** YYYY-MM-DD; pace uses the goal's date when empty */
  @Alias('targetDate') target_date?: string | null;
  /** `increase` (default), `decrease`, `maintain` */
  @Alias('targetDirection') target_direction?: string;
  /** `manual` (default), `webhook`, `api_poll`, `formula` */
  @Alias('sourceType') source_type?: string;
  /** Formula KPIs: `{ formula: "goal_linked_issue_completion", done_statuses: [...] }` */
  @Alias('sourceConfig') source_config?: Record<string, unknown> | null;
  /** Positive integer */
  @Alias('staleAfterHours') stale_after_hours?: number | null;
}
