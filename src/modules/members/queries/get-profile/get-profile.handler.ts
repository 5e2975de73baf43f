import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { toMemberResponse } from '../../member.mapper';
import { MembersRepository } from '../../members.repository';
import type { ProfileResponse } from '../../members.response';
import { GetProfileQuery } from './get-profile.query';

/** The caller's own member record in the organization. */
@QueryHandler(GetProfileQuery)
export class GetProfileHandler implements IQueryHandler<GetProfileQuery, ProfileResponse> {
  constructor(private readonly members: MembersRepository) {}

  async execute({ actor }: GetProfileQuery): Promise<ProfileResponse> {
    const row = await this.members.profile(actor.orgId, actor.memberId);
    if (!row) throw Errors.notFound();
    return { ...toMemberResponse(row, true), org_id: actor.orgId, user_id: row.user_id ?? null };
  }
}
