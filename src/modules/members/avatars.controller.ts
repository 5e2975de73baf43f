import { Controller, Delete, Get, HttpCode, Param, Post, Req, Res, StreamableFile } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiConsumes, ApiExtraModels, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentActor, OrgScoped, Public } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { UuidParamPipe } from '../../common/http/validation';
import { readUpload } from '../attachments/upload-reader';
import { UploadSlots } from '../attachments/upload-slots';
import type { AvatarOutcome } from './avatar-access';
import { MAX_AVATAR_BYTES } from './avatars.constants';
import { AvatarConflict, AvatarDeleted, AvatarUploaded } from './avatars.response';
import { DeleteAvatarCommand } from './commands/delete-avatar/delete-avatar.command';
import { UploadAvatarCommand } from './commands/upload-avatar/upload-avatar.command';
import type { AvatarFile } from './queries/get-avatar/get-avatar.handler';
import { GetAvatarQuery } from './queries/get-avatar/get-avatar.query';

const conflict = {
  status: 409,
  description:
    '`{ "error": "Avatar changed concurrently" }` (plus `cleanup_pending: true` when removal of a staged or retired object is still queued): ' +
    'the avatar changed between this request’s read and its compare-and-set; or another concurrent change (`conflict`)',
  schema: { anyOf: [{ $ref: getSchemaPath(AvatarConflict) }, { $ref: '#/components/schemas/Error' }] },
};
const access = 'Members change their own avatar; owners and admins any member’s of the organization (403 otherwise; 404 for a member not in it).';

/** Member avatars (interface.md "Avatars"). See UploadAvatarHandler. */
@ApiTags('members')
@ApiExtraModels(AvatarConflict)
@OrgScoped()
@Controller('api/orgs/:id/members/:memberId/avatar')
export class AvatarsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly slots: UploadSlots,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Upload a member’s avatar (multipart field `file`, at most 2 MB)',
    description:
      `${access} PNG, JPEG, GIF or WebP, recognized by the file content (the declared type is ignored; anything else 400); metadata ` +
      '(EXIF, XMP, ICC, comments, text chunks) is removed. The body is only `{ member: { id, avatar_url } }`.',
  })
  @ApiParam({ name: 'memberId', description: 'Member id' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary', description: 'The image (at most 2 MB)' } } },
  })
  @ApiResponse({ status: 200, description: 'The avatar is set: `{ member: { id, avatar_url } }`', type: AvatarUploaded })
  @ApiResponse({
    status: 202,
    description: 'The avatar is set; the replaced object is removed by the worker: `{ member, cleanup_pending: true }`',
    type: AvatarUploaded,
  })
  @ApiResponse(conflict)
  @ApiResponse({ status: 413, description: 'The file is larger than 2 MB', schema: { $ref: '#/components/schemas/Error' } })
  @ApiResponse({ status: 503, description: 'Too many uploads in progress in this process (uploads_busy)', schema: { $ref: '#/components/schemas/Error' } })
  async upload(
    @CurrentActor() actor: Actor,
    @Param('memberId', UuidParamPipe) memberId: string,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AvatarOutcome<AvatarUploaded>['body']> {
    return this.slots.run(async () => {
      const upload = await readUpload(req, MAX_AVATAR_BYTES);
      try {
        const r: AvatarOutcome<AvatarUploaded> = await this.commands.execute(new UploadAvatarCommand(actor, memberId, upload));
        reply.status(r.status);
        return r.body;
      } finally {
        upload.drain();
      }
    });
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a member’s avatar', description: access })
  @ApiParam({ name: 'memberId', description: 'Member id' })
  @ApiResponse({ status: 200, description: '`{ success: true }`', type: AvatarDeleted })
  @ApiResponse({ status: 202, description: 'Removed; the object is removed by the worker: `{ success: true, cleanup_pending: true }`', type: AvatarDeleted })
  @ApiResponse(conflict)
  async remove(
    @CurrentActor() actor: Actor,
    @Param('memberId', UuidParamPipe) memberId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AvatarOutcome<AvatarDeleted>['body']> {
    const r: AvatarOutcome<AvatarDeleted> = await this.commands.execute(new DeleteAvatarCommand(actor, memberId));
    reply.status(r.status);
    return r.body;
  }
}

/** The avatar images themselves, at the `avatar_url` of members (public, like an avatars bucket). */
@ApiTags('members')
@Public()
@Controller('api/avatars')
export class AvatarFilesController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':orgId/:objectId')
  @ApiOperation({
    summary: 'A member’s current avatar image (the `avatar_url` of members; no authentication)',
    description: 'Only a current avatar is served (404 once replaced or removed). Its type comes from the stored bytes; `X-Content-Type-Options: nosniff`.',
  })
  @ApiParam({ name: 'orgId', description: 'Organization id' })
  @ApiParam({ name: 'objectId', description: 'Avatar object id (48 hex digits)' })
  @ApiProduces('image/png', 'image/jpeg', 'image/gif', 'image/webp')
  @ApiResponse({ status: 200, description: 'The image', schema: { type: 'string', format: 'binary' } })
  async file(@Param('orgId') orgId: string, @Param('objectId') objectId: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<StreamableFile> {
    const f: AvatarFile = await this.queries.execute(new GetAvatarQuery(orgId, objectId));
    reply.header('content-type', f.type);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'public, max-age=3600');
    return new StreamableFile(f.stream);
  }
}
