import { Allow } from 'class-validator';
import { Alias, AliasesIn } from '../../../../common/http/aliases';

/** Hypothetical issue fields of a dry run. */
export class DryRunIssueDto {
  /** A status key (default `backlog`) */
  @Allow() status?: string;
  /** 0..3 (default 2) */
  @Allow() priority?: number;
  /** Member id or null */
  @Alias('assigneeId') assignee_id?: string | null;
  /** Member ids, primary first */
  @Alias('assigneeIds') assignee_ids?: string[] | null;
  /** Project id or null (omitted: the rule's project) */
  @Alias('projectId') project_id?: string | null;
  /** At most 500 characters */
  @Allow() title?: string;
}

/** Exactly one of `issue_id` (an issue of the organization the caller can read) or `issue` (hypothetical fields). */
export class DryRunAutomationRuleDto {
  /** An existing issue (UUID) */
  @Alias('issueId') issue_id?: string;
  /** Hypothetical issue fields: `status`, `priority`, `assignee_id`, `project_id`, `title` (omitted: a new issue's defaults in the rule's project) */
  @AliasesIn(() => DryRunIssueDto) issue?: DryRunIssueDto;
}
