import { Module } from '@nestjs/common';
import { InitiativesModule } from '../initiatives/initiatives.module';
import { IssuesModule } from '../issues/issues.module';
import { ProjectsModule } from '../projects/projects.module';
import { IssueListController } from './issue-list.controller';
import { IssueListRepository } from './issue-list.repository';
import { ListIssuesHandler } from './queries/list-issues/list-issues.handler';
import { SearchIssuesHandler } from './queries/search-issues/search-issues.handler';

/**
 * GET /api/orgs/:id/issues: the issues the caller can read.
 *
 * - Visibility: issues of readable projects (AccessPolicyService.readableProjects); projectless
 *   issues only for non-guests. An explicitly named `projectId` that is unreadable, unknown or of
 *   another organization is 404 (concealed, same as the project routes) rather than an empty list.
 * - Filters: status (comma list; built-ins or a board column key of the organization, else 400),
 *   priority, projectId, assigneeId (primary or multi-assignee link), teamId, milestoneId,
 *   labelId, parentId, q, open (wins over includeArchived), includeArchived (default false),
 *   compact-view extras assignee, initiativeId (issues linked to the initiative directly or through a linked milestone; unreadable initiative 404),
 *   scope=mine|blocked, and viewId (custom view filters/sort; request parameters win).
 * - Order: created_at (default), updated_at, priority, due_date (nulls last), title
 *   (case-insensitive), status (workflow order); desc by default; ties by id.
 * - Invalid values of any parameter are 400 (never 500): bracketed keys, repeated keys, non-UUIDs,
 *   bad enums, NUL characters (refused for every request: src/common/http/well-formed.ts), q over 500 characters.
 * - Performance: the page is one statement over the (org_id, created_at DESC, id DESC) style
 *   indexes with assignee/label ids aggregated for page rows only; the count runs concurrently.
 *   Statements: IssueListRepository (exported: full issue records for the sub-task routes).
 *
 * GET /api/orgs/:id/issues/search?q=: full-text search over titles, descriptions and live comments
 * (GIN indexes on stored tsvector columns, migration 1765540000000) with the same visibility and
 * items, and the issue reference forms of the detail route ranked first (SearchIssuesHandler).
 */
@Module({
  imports: [InitiativesModule, IssuesModule, ProjectsModule],
  controllers: [IssueListController],
  providers: [IssueListRepository, ListIssuesHandler, SearchIssuesHandler],
  exports: [IssueListRepository],
})
export class IssueListModule {}
