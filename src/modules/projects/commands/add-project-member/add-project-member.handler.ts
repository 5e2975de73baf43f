import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { MembersRepository } from '../../../members/members.repository';
import { ProjectAccessRepository } from '../../project-access.repository';
import { toProjectMemberResponse } from '../../projects.mapper';
import type { ProjectMemberEnvelope } from '../../projects.response';
import { AddProjectMemberCommand } from './add-project-member.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Grants one member explicit access to the project (default `edit`). Needs project admin. */
@CommandHandler(AddProjectMemberCommand)
export class AddProjectMemberHandler implements ICommandHandler<AddProjectMemberCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly projectAccess: ProjectAccessRepository,
    private readonly members: MembersRepository,
  ) {}

  async execute({ actor, projectId, dto }: AddProjectMemberCommand): Promise<ProjectMemberEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'admin');
    const memberId = dto.memberId?.toLowerCase();
    if (!memberId) throw Errors.validation('memberId is required');
    const level = dto.accessLevel ?? 'edit';
    return this.tx.run(async (m) => {
      const member = await this.members.lockLiveForShare(actor.orgId, memberId, m);
      if (!member) throw Errors.notFound('Member not found');
      if (member.agent_scope === 'personal') {
        throw Errors.validation("A personal agent has exactly its owner's access; grant access to the owner instead");
      }
      if (!(await this.projectAccess.addMember(actor.orgId, projectId, memberId, level, m)))
        throw Errors.conflict('This member already has an access entry for the project; use PATCH to change its level', 'project_member_exists');
      const [row] = await this.projectAccess.members(actor.orgId, projectId, memberId, m);
      return { member: toProjectMemberResponse(row) };
    });
  }
}
