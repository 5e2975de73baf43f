import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { AddMemberHandler } from './commands/add-member/add-member.handler';
import { RemoveMemberHandler } from './commands/remove-member/remove-member.handler';
import { UpdateMemberHandler } from './commands/update-member/update-member.handler';
import { MembersController } from './members.controller';
import { MembersRepository } from './members.repository';
import { GetProfileHandler } from './queries/get-profile/get-profile.handler';
import { ListMembersHandler } from './queries/list-members/list-members.handler';

/** Organization members (humans and agents share the member record) and the member directory. */
@Module({
  imports: [AccountsModule],
  controllers: [MembersController],
  providers: [MembersRepository, AddMemberHandler, UpdateMemberHandler, RemoveMemberHandler, ListMembersHandler, GetProfileHandler],
  exports: [MembersRepository],
})
export class MembersModule {}
