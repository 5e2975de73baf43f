import { Allow } from 'class-validator';

/** Exactly one of `issue_id` (an issue of the organization the caller can read) or `issue` (hypothetical fields). */
export class DryRunAutomationRuleDto {
  /** An existing issue (UUID) */
  @Allow() issue_id?: string;
  /** Alias of issue_id */
  @Allow() issueId?: string;
  /** Hypothetical issue fields: `status`, `priority`, `assignee_id`, `project_id`, `title` (omitted: a new issue's defaults in the rule's project) */
  @Allow() issue?: Record<string, unknown>;
}
