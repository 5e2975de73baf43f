import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { UuidParamPipe } from '../../common/http/validation';
import {
  ArtifactEnvelope,
  ArtifactLinkEnvelope,
  ArtifactListResponse,
  ArtifactRevisionEnvelope,
  ArtifactRevisionListResponse,
  ArtifactSuccessResponse,
  ArtifactWithRevisionEnvelope,
} from './artifacts.response';
import { CreateArtifactCommand } from './commands/create-artifact/create-artifact.command';
import { ArtifactLinkTargetDto, CreateArtifactDto } from './commands/create-artifact/create-artifact.dto';
import { CreateLinkCommand } from './commands/create-link/create-link.command';
import { CreateRevisionCommand } from './commands/create-revision/create-revision.command';
import { CreateRevisionDto } from './commands/create-revision/create-revision.dto';
import { DeleteLinkCommand } from './commands/delete-link/delete-link.command';
import { GetArtifactQuery } from './queries/get-artifact/get-artifact.query';
import { GetRevisionQuery } from './queries/get-revision/get-revision.query';
import { ListArtifactsQuery } from './queries/list-artifacts/list-artifacts.query';
import { ListRevisionsQuery } from './queries/list-revisions/list-revisions.query';

const PROJECTION = {
  name: 'projection',
  required: false,
  enum: ['source_provenance_v1'],
  description: '`source_provenance_v1` adds `revision.source_reference`; other values or a repeated projection are 400',
};
const PAGE = [
  { name: 'limit', required: false, description: 'Page size 1..100, default 50' },
  { name: 'offset', required: false, description: 'Items to skip, 0..10000' },
];

/** Artifacts: versioned documents linked to issues and projects. See ArtifactsModule for the rules. */
@ApiTags('artifacts')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/artifacts')
export class ArtifactsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Readable artifacts (metadata and visible links, no content), most recently changed first; `hasMore`' })
  @ApiQuery({ name: 'target_type', required: false, enum: ['issue', 'project'], description: 'With target_id: only artifacts linked to it' })
  @ApiQuery({ name: 'target_id', required: false, description: 'Issue (any reference form) or project UUID; unreadable: 404' })
  @ApiQuery(PAGE[0])
  @ApiQuery(PAGE[1])
  @ApiOkResponse({ type: ArtifactListResponse })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<ArtifactListResponse> {
    return this.queries.execute(new ListArtifactsQuery(actor, query));
  }

  @Post()
  @ApiOperation({
    summary:
      'Create an artifact with revision 1 and its links atomically (edit on each link target; unlinked: non-guests). ' +
      'Title over 200 UTF-8 bytes or unknown type: 400; content over 256 KiB: 413; a second prd/implementation_plan on an issue: 409',
  })
  @ApiQuery(PROJECTION)
  @ApiCreatedResponse({ type: ArtifactWithRevisionEnvelope })
  create(@CurrentActor() actor: Actor, @Body() dto: CreateArtifactDto, @Query('projection') projection: unknown): Promise<ArtifactWithRevisionEnvelope> {
    return this.commands.execute(new CreateArtifactCommand(actor, dto, projection));
  }

  @Get(':artifactId')
  @ApiOperation({ summary: 'Artifact metadata and visible links (404 when every link is unreadable)' })
  @ApiOkResponse({ type: ArtifactEnvelope })
  get(@CurrentActor() actor: Actor, @Param('artifactId', UuidParamPipe) artifactId: string): Promise<ArtifactEnvelope> {
    return this.queries.execute(new GetArtifactQuery(actor, artifactId));
  }

  @Get(':artifactId/revisions')
  @ApiOperation({ summary: 'Revision history, newest first, without content; `hasMore`' })
  @ApiQuery(PAGE[0])
  @ApiQuery(PAGE[1])
  @ApiOkResponse({ type: ArtifactRevisionListResponse })
  revisions(
    @CurrentActor() actor: Actor,
    @Param('artifactId', UuidParamPipe) artifactId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<ArtifactRevisionListResponse> {
    return this.queries.execute(new ListRevisionsQuery(actor, artifactId, query));
  }

  @Post(':artifactId/revisions')
  @ApiOperation({
    summary:
      'Revise with the exact expected_revision_id or expected_revision_number (stale: 409 CONFLICT; identical: 409 unchanged_revision). ' +
      'Omitted content and source are carried forward; source null clears it',
  })
  @ApiQuery(PROJECTION)
  @ApiCreatedResponse({ type: ArtifactWithRevisionEnvelope })
  revise(
    @CurrentActor() actor: Actor,
    @Param('artifactId', UuidParamPipe) artifactId: string,
    @Body() dto: CreateRevisionDto,
    @Query('projection') projection: unknown,
  ): Promise<ArtifactWithRevisionEnvelope> {
    return this.commands.execute(new CreateRevisionCommand(actor, artifactId, dto, projection));
  }

  @Get(':artifactId/revisions/:revisionId')
  @ApiOperation({ summary: 'One revision with its sanitized content' })
  @ApiQuery(PROJECTION)
  @ApiOkResponse({ type: ArtifactRevisionEnvelope })
  revision(
    @CurrentActor() actor: Actor,
    @Param('artifactId', UuidParamPipe) artifactId: string,
    @Param('revisionId', UuidParamPipe) revisionId: string,
    @Query('projection') projection: unknown,
  ): Promise<ArtifactRevisionEnvelope> {
    return this.queries.execute(new GetRevisionQuery(actor, artifactId, revisionId, projection));
  }

  @Post(':artifactId/links')
  @ApiOperation({ summary: 'Link to an issue (any reference form) or project (write access to the artifact, edit on the target)' })
  @ApiBody({ type: ArtifactLinkTargetDto })
  @ApiCreatedResponse({ type: ArtifactLinkEnvelope })
  link(
    @CurrentActor() actor: Actor,
    @Param('artifactId', UuidParamPipe) artifactId: string,
    @Body() dto: ArtifactLinkTargetDto,
  ): Promise<ArtifactLinkEnvelope> {
    return this.commands.execute(new CreateLinkCommand(actor, artifactId, dto));
  }

  @Delete(':artifactId/links/:linkId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unlink atomically (write access; the final link needs an organization owner or admin)' })
  @ApiOkResponse({ type: ArtifactSuccessResponse })
  unlink(
    @CurrentActor() actor: Actor,
    @Param('artifactId', UuidParamPipe) artifactId: string,
    @Param('linkId', UuidParamPipe) linkId: string,
  ): Promise<ArtifactSuccessResponse> {
    return this.commands.execute(new DeleteLinkCommand(actor, artifactId, linkId));
  }
}
