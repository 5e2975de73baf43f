import { Module } from '@nestjs/common';
import { StorageModule } from '../../common/storage/storage.module';
import { UploadSlots } from '../attachments/upload-slots';
import { AvatarCleanupSweeper } from './avatar-cleanup.sweeper';
import { AvatarFilesController, AvatarsController } from './avatars.controller';
import { AvatarsRepository } from './avatars.repository';
import { DeleteAvatarHandler } from './commands/delete-avatar/delete-avatar.handler';
import { UploadAvatarHandler } from './commands/upload-avatar/upload-avatar.handler';
import { GetAvatarHandler } from './queries/get-avatar/get-avatar.handler';
import { AcceptInvitationHandler } from './commands/accept-invitation/accept-invitation.handler';
import { CreateInvitationHandler } from './commands/create-invitation/create-invitation.handler';
import { DeclineInvitationHandler } from './commands/decline-invitation/decline-invitation.handler';
import { RemoveMemberHandler } from './commands/remove-member/remove-member.handler';
import { RevokeInvitationHandler } from './commands/revoke-invitation/revoke-invitation.handler';
import { UpdateMemberHandler } from './commands/update-member/update-member.handler';
import { MyInvitationsController, OrgInvitationsController } from './invitations.controller';
import { InvitationsRepository } from './invitations.repository';
import { MembersController } from './members.controller';
import { MembersRepository } from './members.repository';
import { GetProfileHandler } from './queries/get-profile/get-profile.handler';
import { ListInvitationsHandler } from './queries/list-invitations/list-invitations.handler';
import { ListMembersHandler } from './queries/list-members/list-members.handler';
import { ListMyInvitationsHandler } from './queries/list-my-invitations/list-my-invitations.handler';

/**
 * Organization members (humans and agents share the member record), the member directory, and
 * invitations: humans join an organization only by accepting one (accepting writes the member).
 * Avatars: upload and removal by compare-and-set on the member's avatar pointer, objects in the
 * configured ObjectStorage, removals through the durable `avatar_cleanups` queue (the worker side
 * is AvatarsWorkerModule).
 */
@Module({
  imports: [StorageModule],
  controllers: [MembersController, OrgInvitationsController, MyInvitationsController, AvatarsController, AvatarFilesController],
  providers: [
    AvatarsRepository,
    AvatarCleanupSweeper,
    UploadSlots,
    UploadAvatarHandler,
    DeleteAvatarHandler,
    GetAvatarHandler,
    MembersRepository,
    InvitationsRepository,
    CreateInvitationHandler,
    AcceptInvitationHandler,
    DeclineInvitationHandler,
    RevokeInvitationHandler,
    UpdateMemberHandler,
    RemoveMemberHandler,
    ListMembersHandler,
    GetProfileHandler,
    ListInvitationsHandler,
    ListMyInvitationsHandler,
  ],
  exports: [MembersRepository],
})
export class MembersModule {}
