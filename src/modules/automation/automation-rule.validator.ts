import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Errors } from '../../common/errors/domain-error';
import { IssueWriter } from '../issues/issue-writer.service';
import { LabelsRepository } from '../labels/labels.repository';
import { MembersRepository } from '../members/members.repository';
import { ProjectsRepository } from '../projects/projects.repository';
import type { RuleDefinition } from './automation-rule.model';
import { AUTOMATION_WEBHOOKS, type AutomationWebhooks } from './automation-webhooks.port';
import { AutomationRepository } from './automation.repository';

/**
 * The checks of a rule against its organization, before anything is stored (every failure 400,
 * except an unknown project: 404): `project_id` a project of the organization; `set_status` a
 * status of the rule's project (built-in statuses for org-wide rules: the issue's project decides
 * at run time); `set_assignee` an active member (who can read the rule's project, for a project rule); `add_label` a label of the organization;
 * `send_webhook` an enabled automation destination of the organization.
 */
@Injectable()
export class AutomationRuleValidator {
  constructor(
    private readonly issues: IssueWriter,
    private readonly repo: AutomationRepository,
    private readonly projects: ProjectsRepository,
    private readonly members: MembersRepository,
    private readonly labels: LabelsRepository,
    @Inject(AUTOMATION_WEBHOOKS) private readonly webhooks: AutomationWebhooks,
  ) {}

  /**
   * `only` (updates): check only what changes, so a rule whose destination was disabled later can
   * still be renamed or disabled (its runs then fail with `webhook_unavailable`).
   */
  async assertValid(m: EntityManager, orgId: string, rule: RuleDefinition, only?: { project: boolean; actions: boolean }): Promise<void> {
    if (only && !only.project && !only.actions) return;
    if (rule.projectId && (!only || only.project)) {
      if (!(await this.projects.findById(orgId, rule.projectId, m))) throw Errors.notFound('Project not found');
    }
    const statuses = rule.projectId ? await this.issues.statuses(m, orgId, rule.projectId) : null;
    for (const [i, a] of rule.actions.entries()) {
      const at = `actions[${i}]`;
      switch (a.type) {
        case 'set_status':
          if (statuses && !statuses.includes(a.value)) throw Errors.validation(`${at}.value must be a status of the rule's project: ${statuses.join(', ')}`);
          break;
        case 'set_assignee':
          if (a.value) {
            if (!(await this.members.liveSummary(orgId, a.value, m))) throw Errors.validation(`${at}.value must be an active member of this organization`);
            // a project rule: the assignee must be able to read that project (as for members' updates)
            if (rule.projectId) await this.issues.assertAssignees(m, orgId, rule.projectId, [a.value]);
          }
          break;
        case 'add_label': {
          if (!(await this.labels.find(orgId, a.value, m))) throw Errors.validation(`${at}.value must be a label of this organization`);
          break;
        }
        case 'send_webhook':
          await this.webhooks.assertAutomationDestination(m, orgId, a.webhook_id);
          break;
        default:
          break;
      }
    }
  }
}
