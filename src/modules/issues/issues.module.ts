import { TemplatesModule } from '../templates/templates.module';
import { IssueTemplates } from './issue-templates';
import { Module } from '@nestjs/common';
import { CommentsModule } from '../comments/comments.module';
import { DependenciesModule } from '../dependencies/dependencies.module';
import { LabelsModule } from '../labels/labels.module';
import { MembersModule } from '../members/members.module';
import { MilestonesModule } from '../milestones/milestones.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { ProjectsModule } from '../projects/projects.module';
import { TeamsModule } from '../teams/teams.module';
import { ArchiveIssueHandler } from './commands/archive-issue/archive-issue.handler';
import { BulkCreateIssuesHandler } from './commands/bulk-create-issues/bulk-create-issues.handler';
import { CreateIssueHandler } from './commands/create-issue/create-issue.handler';
import { DeleteIssueHandler } from './commands/delete-issue/delete-issue.handler';
import { UpdateIssueHandler } from './commands/update-issue/update-issue.handler';
import { IssueReferenceStep } from './issue-reference.step';
import { IssueReferenceResolver } from './issue-reference.resolver';
import { IssueReader } from './issue.reader';
import { IssueRecurrenceAdapter } from './issue-recurrence.adapter';
import { IssueWriter } from './issue-writer.service';
import { RecurrenceRepository } from './recurrence.repository';
import { RecurrenceService } from './recurrence.service';
import { IssuesController } from './issues.controller';
import { IssuesRepository } from './issues.repository';
import { GetIssueHandler } from './queries/get-issue/get-issue.handler';

/**
 * The issue core: create (single and bulk), detail by any reference form, update (with the
 * `comment_body` comment, project moves and completion recurrence: the pure rules of recurring
 * issues in recurrence.rules.ts, the next occurrence in RecurrenceService and RecurrenceRepository),
 * archive and delete. Exports the repository, the reference resolver (initiative routes), the reader
 * and the writer (sub-tasks). Provides the IssueReferenceStep (a request step of every route): every `@IssueAddressed()`
 * route (issue detail's sub-routes in any module) takes any issue reference form.
 */
@Module({
  imports: [
    CommentsModule,
    DependenciesModule,
    ProjectsModule,
    MembersModule,
    MilestonesModule,
    TeamsModule,
    LabelsModule,
    OrganizationsModule,
    TemplatesModule,
  ],
  controllers: [IssuesController],
  providers: [
    IssueTemplates,
    IssuesRepository,
    IssueReferenceResolver,
    IssueReferenceStep,
    IssueReader,
    IssueWriter,
    IssueRecurrenceAdapter,
    RecurrenceService,
    RecurrenceRepository,
    CreateIssueHandler,
    BulkCreateIssuesHandler,
    UpdateIssueHandler,
    ArchiveIssueHandler,
    DeleteIssueHandler,
    GetIssueHandler,
  ],
  exports: [IssuesRepository, IssueReferenceResolver, IssueReader, IssueWriter],
})
export class IssuesModule {}
