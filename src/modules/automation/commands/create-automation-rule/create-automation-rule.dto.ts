import { Allow } from 'class-validator';

/**
 * An automation rule. Shapes and values are checked field by field (automation-rule-input.ts) so
 * every malformed item gets a 400 naming it; unknown properties are ignored.
 */
export class CreateAutomationRuleDto {
  /** 1..200 characters */
  @Allow() name?: string;
  /** `issue.created`, `issue.status_changed`, `issue.assigned`, `issue.priority_changed` or `issue.updated` */
  @Allow() trigger_event?: string;
  /** Alias of trigger_event */
  @Allow() triggerEvent?: string;
  /** Up to 20 items `{ field, operator, value }`; all must hold (empty = always) */
  @Allow() conditions?: Array<{ field: string; operator: string; value: unknown }>;
  /** 1..20 items `{ type, value }` or `{ type: "send_webhook", webhook_id }`, run in order */
  @Allow() actions?: Array<{ type: string; value?: unknown; webhook_id?: string }>;
  /** Default true */
  @Allow() enabled?: boolean;
  /** A project of the organization, or null/omitted for every issue of the organization */
  @Allow() project_id?: string | null;
  /** Alias of project_id */
  @Allow() projectId?: string | null;
}
