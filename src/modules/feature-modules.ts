import { AccountsModule } from './accounts/accounts.module';
import { ArtifactsModule } from './artifacts/artifacts.module';
import { ActivityModule } from './activity/activity.module';
import { AutomationModule } from './automation/automation.module';
import { AttachmentsModule } from './attachments/attachments.module';
import { CommentsModule } from './comments/comments.module';
import { DependenciesModule } from './dependencies/dependencies.module';
import { InitiativesModule } from './initiatives/initiatives.module';
import { IssueLabelsModule } from './issue-labels/issue-labels.module';
import { IssueListModule } from './issue-list/issue-list.module';
import { IssuesModule } from './issues/issues.module';
import { SubtasksModule } from './subtasks/subtasks.module';
import { MilestonesModule } from './milestones/milestones.module';
import { AgentsModule } from './agents/agents.module';
import { LabelsModule } from './labels/labels.module';
import { MembersModule } from './members/members.module';
import { NotificationsModule } from './notifications/notifications.module';
import { OpsModule } from './ops/ops.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { ProjectsModule } from './projects/projects.module';
import { TeamsModule } from './teams/teams.module';
import { StrategyModule } from './strategy/strategy.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { KpiSyncsModule } from './kpi-syncs/kpi-syncs.module';
import { HeartbeatModule } from './heartbeat/heartbeat.module';
import { OAuthModule } from './oauth/oauth.module';
import { McpModule } from './mcp/mcp.module';
import { ExecutionsModule } from './executions/executions.module';
import { RunnersModule } from './runners/runners.module';
import { TemplatesModule } from './templates/templates.module';
import { ProjectStatusModule } from './project-status/project-status.module';
import { AnalyticsModule } from './analytics/analytics.module';
import { DeploymentsModule } from './deployments/deployments.module';
import { InboxModule } from './inbox/inbox.module';
import { GithubModule } from './github/github.module';
import { ChatIntegrationsModule } from './chat-integrations/chat-integrations.module';

/** The API's domain modules (one per domain). */
export const FEATURE_MODULES = [
  OpsModule,
  AccountsModule,
  OrganizationsModule,
  MembersModule,
  AgentsModule,
  ProjectsModule,
  TeamsModule,
  LabelsModule,
  IssuesModule,
  MilestonesModule,
  CommentsModule,
  DependenciesModule,
  ActivityModule,
  AttachmentsModule,
  IssueListModule,
  SubtasksModule,
  IssueLabelsModule,
  NotificationsModule,
  InitiativesModule,
  StrategyModule,
  WebhooksModule,
  AutomationModule,
  KpiSyncsModule,
  HeartbeatModule,
  OAuthModule,
  McpModule,
  ArtifactsModule,
  ExecutionsModule,
  RunnersModule,
  TemplatesModule,
  ProjectStatusModule,
  AnalyticsModule,
  DeploymentsModule,
  InboxModule,
  GithubModule,
  ChatIntegrationsModule,
];
