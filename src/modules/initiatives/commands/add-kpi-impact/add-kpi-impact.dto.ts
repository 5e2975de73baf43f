import { Allow } from 'class-validator';

export class AddKpiImpactDto {
  /** KPI UUID (must be readable) */
  @Allow() kpi_id: string;
  /** Alias of kpi_id */
  @Allow() kpiId?: string;
  /** What the initiative is expected to do to the KPI, at most 2000 characters, e.g. "+100 signups per month" */
  @Allow() expected_impact?: string | null;
  /** Alias of expected_impact */
  @Allow() expectedImpact?: string | null;
}
