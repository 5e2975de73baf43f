import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { IssuesRepository } from '../../../issues/issues.repository';
import { type ConditionSubject, conditionsMatch, subjectOf } from '../../automation-rule.model';
import { AutomationRuleReader } from '../../automation-rule.reader';
import type { DryRunResponse } from '../../automation.response';
import { DryRunAutomationRuleQuery } from './dry-run-automation-rule.query';

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Owner/admin. Evaluates the rule's scope (its project) and conditions against one issue and
 * returns the actions that would run. Reads only: no change, no run recorded, no delivery. The
 * trigger and `enabled` are not evaluated (a disabled rule can be tried before enabling it).
 */
@QueryHandler(DryRunAutomationRuleQuery)
export class DryRunAutomationRuleHandler implements IQueryHandler<DryRunAutomationRuleQuery, DryRunResponse> {
  constructor(
    private readonly db: DataSource,
    private readonly rules: AutomationRuleReader,
    private readonly access: AccessPolicyService,
    private readonly issues: IssuesRepository,
  ) {}

  async execute({ actor, ruleId, dto }: DryRunAutomationRuleQuery): Promise<DryRunResponse> {
    this.rules.assertCanManage(actor);
    const rule = await this.rules.readable(this.db.manager, actor, ruleId);
    const raw = dto as Record<string, unknown>;
    const issueId = raw.issue_id;
    const given = raw.issue;
    if ((issueId === undefined || issueId === null) === (given === undefined || given === null)) {
      throw Errors.validation('Send exactly one of issue_id or issue');
    }
    let subject: ConditionSubject;
    if (issueId !== undefined && issueId !== null) {
      if (!isUuid(issueId)) throw Errors.validation('issue_id must be an issue id (UUID)');
      const issue = await this.access.assertIssueRead(actor, issueId);
      subject = subjectOf((await this.issues.facts(actor.orgId, [issue.id])).get(issue.id)!);
    } else {
      subject = parseHypothetical(given, rule.projectId);
    }
    const inScope = !rule.projectId || subject.projectId === rule.projectId;
    const matched = inScope && conditionsMatch(rule.conditions, subject);
    return { matched, actions_that_would_run: matched ? rule.actions : [] };
  }
}

/** `issue: { status?, priority?, assignee_id?, project_id?, title? }` (camelCase aliases too); wrong types are 400. */
function parseHypothetical(v: unknown, ruleProjectId: string | null): ConditionSubject {
  if (!isObj(v)) throw Errors.validation('issue must be an object of issue fields');
  const status = v.status ?? 'backlog';
  if (typeof status !== 'string' || !status.trim() || status.length > 50) throw Errors.validation('issue.status must be a status key');
  const priority = v.priority ?? 2;
  if (!Number.isInteger(priority) || (priority as number) < 0 || (priority as number) > 3) throw Errors.validation('issue.priority must be an integer 0..3');
  const uuidOrNull = (x: unknown, name: string): string | null => {
    if (x === undefined || x === null) return null;
    if (!isUuid(x)) throw Errors.validation(`issue.${name} must be a UUID or null`);
    return x.toLowerCase();
  };
  const assigneeIds = v.assignee_ids;
  if (assigneeIds !== undefined && assigneeIds !== null && !Array.isArray(assigneeIds)) throw Errors.validation('issue.assignee_ids must be an array of UUIDs');
  const ids = ((assigneeIds as unknown[] | null | undefined) ?? []).map((x, i) => uuidOrNull(x, `assignee_ids[${i}]`));
  let assigneeId = uuidOrNull(v.assignee_id, 'assignee_id');
  if (assigneeId === null && ids.length) assigneeId = ids[0];
  const projectRaw = v.project_id;
  const projectId = projectRaw === undefined ? ruleProjectId : uuidOrNull(projectRaw, 'project_id');
  const title = v.title ?? '';
  if (typeof title !== 'string' || title.length > 500) throw Errors.validation('issue.title must be a string of at most 500 characters');
  return { status, priority: priority as number, assigneeId, projectId, title };
}
