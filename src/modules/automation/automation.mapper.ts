import type { AutomationRuleEntity, AutomationRuleRunEntity } from './entities/automation-rule.entity';
import type { AutomationRuleResponse, AutomationRunResponse } from './automation.response';

export const toRuleResponse = (r: AutomationRuleEntity): AutomationRuleResponse => ({
  id: r.id,
  org_id: r.orgId,
  name: r.name,
  trigger_event: r.triggerEvent,
  conditions: r.conditions,
  actions: r.actions,
  enabled: r.enabled,
  project_id: r.projectId,
  created_by_member_id: r.createdByMemberId,
  created_at: new Date(r.createdAt).toISOString(),
  updated_at: new Date(r.updatedAt).toISOString(),
});

export const toRunResponse = (r: AutomationRuleRunEntity): AutomationRunResponse => ({
  id: r.id,
  status: r.status,
  trigger_event: r.triggerEvent,
  issue_id: r.issueId,
  actions: r.actions,
  error_code: r.errorCode,
  started_at: new Date(r.startedAt).toISOString(),
  finished_at: new Date(r.finishedAt).toISOString(),
});
