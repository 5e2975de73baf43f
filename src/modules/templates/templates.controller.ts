import { Body, Controller, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentActor, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { parsePage } from '../../common/http/list';
import { ApiErrors, ApiPagedList } from '../../common/openapi/decorators';
import { CreateTemplateCommand } from './commands/create-template/create-template.command';
import { CreateTemplateDto } from './commands/create-template/create-template.dto';
import { DeleteTemplateCommand } from './commands/delete-template/delete-template.command';
import { UpdateTemplateCommand } from './commands/update-template/update-template.command';
import { UpdateTemplateDto } from './commands/update-template/update-template.dto';
import { ListTemplatesQuery } from './queries/list-templates/list-templates.query';
import { TemplateDeleted, TemplateEnvelope, TemplateList } from './templates.response';

/** Issue templates. Who may do what: AccessPolicyService.templateLevel (see TemplatesModule). */
@ApiTags('templates')
@ApiParam({ name: 'id', description: 'Organization id', schema: { type: 'string', format: 'uuid' } })
@OrgScoped()
@Controller('api/orgs/:id/templates')
export class TemplatesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List the issue templates the caller can read, by name',
    description:
      "Organization-wide templates (non-guests) and those of readable projects. With `projectId` (a readable project, else 404): that project's templates and the organization-wide ones.",
  })
  @ApiQuery({ name: 'projectId', required: false, schema: { type: 'string', format: 'uuid' } })
  @ApiPagedList()
  @ApiOkResponse({ type: TemplateList })
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, unknown>): Promise<Record<string, unknown>> {
    const projectId = typeof query.projectId === 'string' ? query.projectId : typeof query.project_id === 'string' ? query.project_id : undefined;
    return this.queries.execute(new ListTemplatesQuery(actor, projectId, parsePage(query)));
  }

  @Post()
  @ApiOperation({
    summary: 'Create a template: of a project (edit access) or organization-wide (owners and admins)',
    description: 'Content is stored as sanitized HTML with the comment rules. Issue create takes `templateId`.',
  })
  @ApiCreatedResponse({ type: TemplateEnvelope })
  @ApiErrors({ 409: '`template_name_taken`: a template of this scope has this name (any letter case)' })
  async create(@CurrentActor() actor: Actor, @Body() dto: CreateTemplateDto): Promise<TemplateEnvelope> {
    return { template: await this.commands.execute(new CreateTemplateCommand(actor, dto as unknown as Record<string, unknown>)) };
  }

  @Patch(':templateId')
  @ApiOperation({ summary: 'Rename or rewrite a template (same rights as creating it in its scope)' })
  @ApiParam({ name: 'templateId', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: TemplateEnvelope })
  @ApiErrors({ 409: '`template_name_taken`: a template of this scope has this name (any letter case)' })
  async update(@CurrentActor() actor: Actor, @Param('templateId') templateId: string, @Body() dto: UpdateTemplateDto): Promise<TemplateEnvelope> {
    return { template: await this.commands.execute(new UpdateTemplateCommand(actor, templateId, dto as unknown as Record<string, unknown>)) };
  }

  @Delete(':templateId')
  @ApiOperation({ summary: 'Delete a template (same rights as creating it in its scope); issues made from it are unchanged' })
  @ApiParam({ name: 'templateId', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ type: TemplateDeleted })
  async remove(@CurrentActor() actor: Actor, @Param('templateId') templateId: string): Promise<TemplateDeleted> {
    await this.commands.execute(new DeleteTemplateCommand(actor, templateId));
    return { success: true };
  }
}
