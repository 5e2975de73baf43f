import { Allow } from 'class-validator';
import { Alias, AliasesIn } from '../../../../common/http/aliases';

/** One action: `{ type, value }` or `{ type: "send_webhook", webhook_id }`. */
export class AutomationActionDto {
  /** `set_status`, `set_priority`, `set_assignee`, `add_label`, `post_comment`, `close_issue` or `send_webhook` */
  @Allow() type: string;
  /** The action's value (by type) */
  @Allow() value?: unknown;
  /** `send_webhook`: a webhook of the organization */
  @Alias('webhookId') webhook_id?: string;
}

/**
 * An automation rule. Shapes and values are checked field by field (automation-rule-input.ts) so
 * every malformed item gets a 400 naming it; unknown properties are a 400 (the validation pipe).
 */
export class CreateAutomationRuleDto {
  /** 1..200 characters */
  @Allow() name?: string;
  /** `issue.created`, `issue.status_changed`, `issue.assigned`, `issue.priority_changed` or `issue.updated` */
  @Alias('triggerEvent') trigger_event?: string;
  /** Up to 20 items `{ field, operator, value }`; all must hold (empty = always) */
  @Allow() conditions?: Array<{ field: string; operator: string; value: unknown }>;
  /** 1..20 items `{ type, value }` or `{ type: "send_webhook", webhook_id }`, run in order */
  @AliasesIn(() => AutomationActionDto) actions?: AutomationActionDto[];
  /** Default true */
  @Allow() enabled?: boolean;
  /** A project of the organization, or null/omitted for every issue of the organization */
  @Alias('projectId') project_id?: string | null;
}
