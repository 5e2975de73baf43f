import { Alias } from '../../../../common/http/aliases';

export class AddKpiImpactDto {
  /** KPI UUID (must be readable) */
  @Alias('kpiId') kpi_id: string;
  /** What the initiative is expected to do to the KPI, at most 2000 characters, e.g. "+100 signups per month" */
  @Alias('expectedImpact') expected_impact?: string | null;
}
