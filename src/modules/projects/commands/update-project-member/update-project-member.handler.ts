import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { alias } from '../../../../common/http/validation';
import { type AccessLevel, ProjectMemberEntity } from '../../entities/project-member.entity';
import { readProjectMembers } from '../../project-access.reader';
import { toProjectMemberResponse } from '../../projects.mapper';
import type { ProjectMemberEnvelope } from '../../projects.response';
import { UpdateProjectMemberCommand } from './update-project-member.command';

/** Changes the level of an existing access entry. Needs project admin. */
@CommandHandler(UpdateProjectMemberCommand)
export class UpdateProjectMemberHandler implements ICommandHandler<UpdateProjectMemberCommand> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, dto }: UpdateProjectMemberCommand): Promise<ProjectMemberEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'admin');
    const memberId = alias<string>(dto, 'memberId', 'member_id')?.toLowerCase();
    if (!memberId) throw Errors.validation('memberId is required');
    const level = alias<AccessLevel>(dto, 'accessLevel', 'access_level');
    if (!level) throw Errors.validation('accessLevel is required (view, edit or admin)');
    return this.db.transaction(async (m) => {
      const result = await m.update(ProjectMemberEntity, { orgId: actor.orgId, projectId, memberId }, { accessLevel: level, updatedAt: new Date() });
      const [row] = result.affected ? await readProjectMembers(m, actor.orgId, projectId, memberId) : [];
      if (!row) throw Errors.notFound('This member has no access entry for the project');
      return { member: toProjectMemberResponse(row) };
    });
  }
}
