import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { Errors } from '../../../../common/errors/domain-error';
import { MEMBER_COLUMNS, toMemberResponse } from '../../member.mapper';
import type { ProfileResponse } from '../../members.response';
import { GetProfileQuery } from './get-profile.query';

/** The caller's own member record in the organization. */
@QueryHandler(GetProfileQuery)
export class GetProfileHandler implements IQueryHandler<GetProfileQuery, ProfileResponse> {
  constructor(private readonly db: DataSource) {}

  async execute({ actor }: GetProfileQuery): Promise<ProfileResponse> {
    const rows = await this.db.query(
      `SELECT ${MEMBER_COLUMNS}, m.user_id FROM members m LEFT JOIN users u ON u.id = m.user_id WHERE m.org_id = $1 AND m.id = $2`,
      [actor.orgId, actor.memberId],
    );
    if (!rows[0]) throw Errors.notFound();
    return { ...toMemberResponse(rows[0], true), org_id: actor.orgId, user_id: rows[0].user_id ?? null };
  }
}
