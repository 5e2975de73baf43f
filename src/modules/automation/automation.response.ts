import { ApiAnyValue } from '../../common/openapi/decorators';

export class AutomationConditionResponse {
  /** `status`, `priority`, `assignee_id`, `project_id` or `title` */
  field: string;
  /** `eq`, `neq`, `in`, `not_in` or `contains` (title only) */
  operator: string;
  /** A value of the field, or a list of them for `in` / `not_in` */
  @ApiAnyValue()
  value: unknown;
}
export class AutomationActionResponse {
  /** `set_status`, `set_assignee`, `set_priority`, `add_label`, `post_comment`, `close_issue` or `send_webhook` */
  type: string;
  /** The action's value (absent for `close_issue` and `send_webhook`) */
  @ApiAnyValue({ required: false })
  value?: unknown;
  /** `send_webhook` only: the destination webhook */
  webhook_id?: string;
}
export class AutomationRuleResponse {
  id: string;
  org_id: string;
  name: string;
  /** `issue.created`, `issue.status_changed`, `issue.assigned`, `issue.priority_changed` or `issue.updated` */
  trigger_event: string;
  conditions: AutomationConditionResponse[];
  actions: AutomationActionResponse[];
  enabled: boolean;
  /** The rule's project, or null for every issue of the organization */
  project_id: string | null;
  created_by_member_id: string | null;
  created_at: string;
  updated_at: string;
}
export class AutomationRuleEnvelope {
  rule: AutomationRuleResponse;
}
export class AutomationRuleList {
  rules: AutomationRuleResponse[];
  total: number;
  limit: number;
  offset: number;
}
export class AutomationRunResponse {
  id: string;
  /** `success`, `failed` (an action failed; `error_code` says why) or `skipped` (matched but not run, e.g. `automation_depth_limit`) */
  status: string;
  trigger_event: string;
  issue_id: string;
  /** Types of the actions that ran (no inputs) */
  actions: string[];
  error_code: string | null;
  started_at: string;
  finished_at: string;
}
export class AutomationRunList {
  /** Newest first, at most 100 */
  runs: AutomationRunResponse[];
}
export class DryRunResponse {
  matched: boolean;
  /** The actions that would run for this issue (empty when not matched) */
  actions_that_would_run: AutomationActionResponse[];
}
export class SuccessResponse {
  success: boolean;
}
