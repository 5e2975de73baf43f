import { Module } from '@nestjs/common';
import { CommentsModule } from '../comments/comments.module';
import { IssueLabelsModule } from '../issue-labels/issue-labels.module';
import { IssuesModule } from '../issues/issues.module';
import { LabelsModule } from '../labels/labels.module';
import { MembersModule } from '../members/members.module';
import { ProjectsModule } from '../projects/projects.module';
import { WebhookOutbox } from '../webhooks/webhook-outbox.service';
import { WebhooksCoreModule } from '../webhooks/webhooks-core.module';
import { AutomationRuleReader } from './automation-rule.reader';
import { AutomationRuleValidator } from './automation-rule.validator';
import { AutomationJobs } from './automation-jobs.service';
import { AutomationRunner } from './automation-runner.service';
import { AutomationRepository } from './automation.repository';
import { AUTOMATION_WEBHOOKS } from './automation-webhooks.port';
import { AutomationController } from './automation.controller';
import { CreateAutomationRuleHandler } from './commands/create-automation-rule/create-automation-rule.handler';
import { DeleteAutomationRuleHandler } from './commands/delete-automation-rule/delete-automation-rule.handler';
import { UpdateAutomationRuleHandler } from './commands/update-automation-rule/update-automation-rule.handler';
import { DryRunAutomationRuleHandler } from './queries/dry-run-automation-rule/dry-run-automation-rule.handler';
import { GetAutomationRuleHandler } from './queries/get-automation-rule/get-automation-rule.handler';
import { ListAutomationRuleRunsHandler } from './queries/list-automation-rule-runs/list-automation-rule-runs.handler';
import { ListAutomationRulesHandler } from './queries/list-automation-rules/list-automation-rules.handler';

/**
 * Automation rules: when an issue change fires a rule's trigger and its conditions hold, its
 * actions run as the automation actor, through the automation job outbox (see AutomationJobs,
 * AutomationRunner; the worker's AutomationDrain runs the jobs left behind).
 *
 * Access (AccessPolicyService):
 * - read (list, detail): non-guest members; rules of projects the caller cannot read are omitted
 *   from lists and 404 directly; guests 403;
 * - create, update, delete, run history, dry run: owners and admins (403 for others, checked
 *   before the rule is looked up); non-members 404 for everything.
 */
@Module({
  imports: [IssuesModule, CommentsModule, IssueLabelsModule, WebhooksCoreModule, ProjectsModule, MembersModule, LabelsModule],
  controllers: [AutomationController],
  providers: [
    AutomationRuleReader,
    AutomationRuleValidator,
    AutomationRunner,
    AutomationRepository,
    AutomationJobs,
    // send_webhook goes through the webhook outbox (delivery row in the run's transaction)
    { provide: AUTOMATION_WEBHOOKS, useExisting: WebhookOutbox },
    CreateAutomationRuleHandler,
    UpdateAutomationRuleHandler,
    DeleteAutomationRuleHandler,
    ListAutomationRulesHandler,
    GetAutomationRuleHandler,
    ListAutomationRuleRunsHandler,
    DryRunAutomationRuleHandler,
  ],
  exports: [AutomationRepository, AutomationJobs],
})
export class AutomationModule {}
