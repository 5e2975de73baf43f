export class GoalResponse {
  id: string;
  /** 1..500 characters (trimmed) */
  title: string;
  description: string | null;
  /** Member who owns the goal */
  owner_id: string | null;
  /** `active`, `achieved`, `missed`, `paused` or `cancelled` */
  status: 'active' | 'achieved' | 'missed' | 'paused' | 'cancelled';
  /** YYYY-MM-DD */
  target_date: string | null;
  /** Project the goal is bound to (its access applies); null = organization-level */
  project_id: string | null;
  created_by_member_id: string | null;
  created_at: string;
  updated_at: string;
}
export class GoalEnvelope {
  goal: GoalResponse;
}
export class GoalListResponse {
  goals: GoalResponse[];
  total: number;
  limit: number;
  offset: number;
}

export class KpiResponse {
  id: string;
  /** 1..200 characters (trimmed) */
  name: string;
  description: string | null;
  goal_id: string | null;
  /** Project the KPI is bound to (its access applies); null = organization-level */
  project_id: string | null;
  /** `count`, `percentage`, `currency`, `duration`, `ratio` or `custom` */
  unit: string;
  unit_label: string | null;
  /** Value at the KPI's creation, the start of its pace line (else the first snapshot) */
  baseline_value: number | null;
  target_value: number | null;
  /** YYYY-MM-DD; pace uses the goal's date when null */
  target_date: string | null;
  /** `increase`, `decrease` or `maintain` */
  target_direction: string;
  /** `manual`, `webhook`, `api_poll` or `formula` */
  source_type: string;
  /** For formula KPIs `{ formula: "goal_linked_issue_completion", done_statuses: [...] }` */
  source_config: Record<string, unknown> | null;
  /** Hours without a snapshot after which the KPI is stale */
  stale_after_hours: number | null;
  /** Latest snapshot's value (formula KPIs: the calculated count) */
  current_value: number | null;
  /** When current_value last changed */
  last_recorded_at: string | null;
  created_by_member_id: string | null;
  created_at: string;
  updated_at: string;
}
export class KpiInitiativeRef {
  id: string;
  title: string;
  /** Legacy name, equal to title */
  name: string;
  status: string;
}
export class KpiInitiativeImpact {
  /** Impact link id */
  id: string;
  initiative_id: string;
  kpi_id: string;
  expected_impact: string | null;
  created_at: string;
  initiative: KpiInitiativeRef;
}
export class KpiDetailResponse extends KpiResponse {
  /** Impact links of initiatives the caller can read (all statuses) */
  initiative_impacts: KpiInitiativeImpact[];
}
export class KpiEnvelope {
  kpi: KpiResponse;
}
export class KpiDetailEnvelope {
  kpi: KpiDetailResponse;
}
export class KpiListResponse {
  kpis: KpiResponse[];
  total: number;
  limit: number;
  offset: number;
}

export class SnapshotResponse {
  id: string;
  kpi_id: string;
  value: number;
  /** `manual`, `webhook`, `api_poll`, `formula` or `agent` */
  source: string;
  attribution_note: string | null;
  attributed_to_initiative_id: string | null;
  attributed_to_issue_id: string | null;
  recorded_by_member_id: string | null;
  /** api_poll provenance (null otherwise) */
  source_sync_id: string | null;
  source_sync_run_id: string | null;
  source_config_hash: string | null;
  source_recorded_for: string | null;
  observed_at: string | null;
  provider_recorded_at: string | null;
  created_at: string;
}
export class SnapshotEnvelope {
  snapshot: SnapshotResponse;
}
export class SnapshotListResponse {
  snapshots: SnapshotResponse[];
  total: number;
  limit: number;
  offset: number;
}

export class StrategySuccessResponse {
  success: boolean;
}

export class AuditFinding {
  /** Finding type, e.g. `kpi_stale` */
  type: string;
  /** `critical`, `warning` or `info` */
  severity: 'critical' | 'warning' | 'info';
  title: string;
  message: string;
  suggested_fix: string;
  goal_id?: string;
  kpi_id?: string;
  initiative_id?: string;
  initiative_target_id?: string;
  issue_id?: string;
  milestone_id?: string;
  project_id?: string;
}
export class AuditSummary {
  total: number;
  critical: number;
  warning: number;
  info: number;
  /** One line for people */
  text: string;
  /** When the audit was computed */
  generated_at: string;
}
export class StrategyAuditResponse {
  /** Sorted critical, warning, info; then by type and ids */
  findings: AuditFinding[];
  summary: AuditSummary;
  /** Number of findings per type (only types present) */
  counts_by_type: Record<string, number>;
}
