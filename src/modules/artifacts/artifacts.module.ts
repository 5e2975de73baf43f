import { Module } from '@nestjs/common';
import { GithubCoreModule } from '../github/github.module';
import { IssuesModule } from '../issues/issues.module';
import { ArtifactAccess } from './artifact-access.service';
import { ArtifactSources } from './artifact-sources.service';
import { ArtifactsController } from './artifacts.controller';
import { ArtifactsRepository } from './artifacts.repository';
import { CreateArtifactHandler } from './commands/create-artifact/create-artifact.handler';
import { CreateLinkHandler } from './commands/create-link/create-link.handler';
import { CreateRevisionHandler } from './commands/create-revision/create-revision.handler';
import { DeleteLinkHandler } from './commands/delete-link/delete-link.handler';
import { GetArtifactHandler } from './queries/get-artifact/get-artifact.handler';
import { GetRevisionHandler } from './queries/get-revision/get-revision.handler';
import { ListArtifactsHandler } from './queries/list-artifacts/list-artifacts.handler';
import { ListRevisionsHandler } from './queries/list-revisions/list-revisions.handler';

/**
 * Artifacts: versioned documents (types `prd`, `implementation_plan`, `test_plan`, `decision`,
 * `research`, `release_checklist`) linked to issues and projects.
 *
 * - Access (AccessPolicyService.artifactAccess): readable when any link target is readable
 *   (unlinked: non-guests); written with edit on every link target. Unreadable: 404; readable but
 *   not writable: 403. Removing the final link: organization owners and admins.
 * - Revisions are immutable, numbered 1, 2, 3, … without gaps; a revision names the exact current
 *   revision it replaces (stale: 409 `CONFLICT`; identical: 409 `unchanged_revision`). Content is
 *   sanitized with the comment sanitizer's rules, at most 256 KiB (413), SHA-256 `content_digest`.
 * - At most one `prd` and one `implementation_plan` per issue, each on one issue only (409
 *   `artifact_type_taken`, `artifact_issue_taken`); a duplicate link 409 `artifact_link_exists`;
 *   a linked issue or project cannot be deleted (409 `artifact_links_exist`).
 * - Events: `artifact.created`/`revised`/`linked`/`unlinked` on the timeline of each linked issue;
 *   webhook broadcasts `artifact.created` and `artifact.revised` (schema version 2).
 * The database enforces the same rules (migration 1765610000000).
 */
@Module({
  imports: [IssuesModule, GithubCoreModule],
  controllers: [ArtifactsController],
  providers: [
    ArtifactsRepository,
    ArtifactAccess,
    ArtifactSources,
    CreateArtifactHandler,
    CreateRevisionHandler,
    CreateLinkHandler,
    DeleteLinkHandler,
    ListArtifactsHandler,
    GetArtifactHandler,
    ListRevisionsHandler,
    GetRevisionHandler,
  ],
})
export class ArtifactsModule {}
