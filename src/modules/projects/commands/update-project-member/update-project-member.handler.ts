import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { ProjectAccessRepository } from '../../project-access.repository';
import { toProjectMemberResponse } from '../../projects.mapper';
import type { ProjectMemberEnvelope } from '../../projects.response';
import { UpdateProjectMemberCommand } from './update-project-member.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Changes the level of an existing access entry. Needs project admin. */
@CommandHandler(UpdateProjectMemberCommand)
export class UpdateProjectMemberHandler implements ICommandHandler<UpdateProjectMemberCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly projectAccess: ProjectAccessRepository,
  ) {}

  async execute({ actor, projectId, dto }: UpdateProjectMemberCommand): Promise<ProjectMemberEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'admin');
    const memberId = dto.memberId?.toLowerCase();
    if (!memberId) throw Errors.validation('memberId is required');
    const level = dto.accessLevel;
    if (!level) throw Errors.validation('accessLevel is required (view, edit or admin)');
    return this.tx.run(async (m) => {
      const updated = await this.projectAccess.updateMemberLevel(actor.orgId, projectId, memberId, level, new Date(), m);
      const [row] = updated ? await this.projectAccess.members(actor.orgId, projectId, memberId, m) : [];
      if (!row) throw Errors.notFound('This member has no access entry for the project');
      return { member: toProjectMemberResponse(row) };
    });
  }
}
