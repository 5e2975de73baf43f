import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import { Actor } from '../../common/auth/principal';
import { IssueAddressed } from '../../common/http/issue-reference';
import { UuidParamPipe } from '../../common/http/validation';
import { ArchiveIssueCommand } from './commands/archive-issue/archive-issue.command';
import { BulkCreateIssuesCommand } from './commands/bulk-create-issues/bulk-create-issues.command';
import { BulkCreateIssuesDto } from './commands/bulk-create-issues/bulk-create-issues.dto';
import { CreateIssueCommand } from './commands/create-issue/create-issue.command';
import { CreateIssueDto } from './commands/create-issue/create-issue.dto';
import { DeleteIssueCommand } from './commands/delete-issue/delete-issue.command';
import { UpdateIssueCommand } from './commands/update-issue/update-issue.command';
import { UpdateIssueDto } from './commands/update-issue/update-issue.dto';
import {
  IssueBulkResponse,
  IssueDetailEnvelope,
  IssueEnvelope,
  IssueReferenceErrorResponse,
  IssuesSuccessResponse,
  IssueUpdateResponse,
} from './issues.response';
import { GetIssueQuery } from './queries/get-issue/get-issue.query';
import { ApiErrors, ApiIssueReferenceParam } from '../../common/openapi/decorators';

/** Reference errors carry `reference`; other errors of the same status (an unknown include, the organization) do not. */
const REFERENCE_OR_OTHER_ERROR = { anyOf: [{ $ref: getSchemaPath(IssueReferenceErrorResponse) }, { $ref: '#/components/schemas/Error' }] };

@ApiTags('issues')
@ApiParam({ name: 'id', description: 'Organization id' })
@OrgScoped()
@Controller('api/orgs/:id/issues')
export class IssuesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create an issue (edit/admin on the target project; projectless: non-guests). Number from the project sequence; 402 at the plan limit',
  })
  @ApiBody({ type: CreateIssueDto })
  @ApiCreatedResponse({ type: IssueEnvelope })
  @ApiErrors(402)
  create(@CurrentActor() actor: Actor, @Body() body: CreateIssueDto): Promise<IssueEnvelope> {
    return this.commands.execute(new CreateIssueCommand(actor, body));
  }

  @Post('bulk')
  @ApiOperation({ summary: 'Create 1..50 issues, all or nothing (edit access on every target project)' })
  @ApiBody({ type: BulkCreateIssuesDto })
  @ApiCreatedResponse({ type: IssueBulkResponse })
  @ApiErrors(402)
  bulk(@CurrentActor() actor: Actor, @Body() body: BulkCreateIssuesDto): Promise<IssueBulkResponse> {
    return this.commands.execute(new BulkCreateIssuesCommand(actor, body));
  }

  @Get(':issueId')
  @ApiOperation({
    summary:
      'Issue detail by reference: UUID, number, #number, ORGPREFIX-number, TSK-number or PROJECTKEY-number; candidates filtered by access before uniqueness',
  })
  @ApiIssueReferenceParam('issueId')
  @ApiQuery({
    name: 'include',
    required: false,
    enum: ['artifact_manifest'],
    description: '`artifact_manifest` adds the artifact manifest; other values are 400',
  })
  @ApiOkResponse({ type: IssueDetailEnvelope })
  @ApiBadRequestResponse({ schema: REFERENCE_OR_OTHER_ERROR, description: '`invalid_reference` (with accepted_forms) or an unknown include' })
  @ApiNotFoundResponse({ schema: REFERENCE_OR_OTHER_ERROR, description: '`reference_not_found`, or `not_found` (the organization)' })
  @ApiConflictResponse({ type: IssueReferenceErrorResponse, description: '`ambiguous_reference` with the readable candidates' })
  get(@CurrentActor() actor: Actor, @Param('issueId') issueId: string, @Query('include') include: unknown): Promise<IssueDetailEnvelope> {
    return this.queries.execute(new GetIssueQuery(actor, issueId, include));
  }

  @Patch(':issueId')
  @ApiOperation({
    summary:
      'Update an issue (any reference form, edit access). assigneeIds replaces the set; labelIds is refused (use the label endpoints); comment_body adds a comment in the same transaction',
  })
  @IssueAddressed()
  @ApiBody({ type: UpdateIssueDto })
  @ApiOkResponse({ type: IssueUpdateResponse })
  @ApiErrors(402)
  update(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string, @Body() body: UpdateIssueDto): Promise<IssueUpdateResponse> {
    return this.commands.execute(new UpdateIssueCommand(actor, issueId, body));
  }

  @Delete(':issueId')
  @ApiOperation({ summary: 'Delete an issue permanently (organization owner/admin only)' })
  @IssueAddressed()
  @ApiOkResponse({ type: IssuesSuccessResponse })
  remove(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string): Promise<IssuesSuccessResponse> {
    return this.commands.execute(new DeleteIssueCommand(actor, issueId));
  }

  @Post(':issueId/archive')
  @HttpCode(200)
  @ApiOperation({ summary: 'Archive an issue (edit access; idempotent)' })
  @IssueAddressed()
  @ApiOkResponse({ type: IssueEnvelope })
  archive(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string): Promise<IssueEnvelope> {
    return this.commands.execute(new ArchiveIssueCommand(actor, issueId, true));
  }

  @Delete(':issueId/archive')
  @ApiOperation({ summary: 'Unarchive an issue (edit access; idempotent)' })
  @IssueAddressed()
  @ApiOkResponse({ type: IssueEnvelope })
  @ApiErrors(402)
  unarchive(@CurrentActor() actor: Actor, @Param('issueId', UuidParamPipe) issueId: string): Promise<IssueEnvelope> {
    return this.commands.execute(new ArchiveIssueCommand(actor, issueId, false));
  }
}
