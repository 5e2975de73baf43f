import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { alias } from '../../../../common/http/validation';
import type { AccessLevel } from '../../entities/project-member.entity';
import { readProjectMembers } from '../../project-access.reader';
import { toProjectMemberResponse } from '../../projects.mapper';
import type { ProjectMemberEnvelope } from '../../projects.response';
import { AddProjectMemberCommand } from './add-project-member.command';

/** Grants one member explicit access to the project (default `edit`). Needs project admin. */
@CommandHandler(AddProjectMemberCommand)
export class AddProjectMemberHandler implements ICommandHandler<AddProjectMemberCommand> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, projectId, dto }: AddProjectMemberCommand): Promise<ProjectMemberEnvelope> {
    await this.access.assertProjectWrite(actor, projectId, 'admin');
    const memberId = alias<string>(dto, 'memberId', 'member_id')?.toLowerCase();
    if (!memberId) throw Errors.validation('memberId is required');
    const level = alias<AccessLevel>(dto, 'accessLevel', 'access_level') ?? 'edit';
    return this.db.transaction(async (m) => {
      const members: Array<{ type: string; agent_scope: string | null }> = await m.query(
        'SELECT type, agent_scope FROM members WHERE org_id = $1 AND id = $2 AND removed_at IS NULL FOR SHARE',
        [actor.orgId, memberId],
      );
      if (!members[0]) throw Errors.notFound('Member not found');
      if (members[0].agent_scope === 'personal') {
        throw Errors.validation("A personal agent has exactly its owner's access; grant access to the owner instead");
      }
      const inserted: Array<{ member_id: string }> = await m.query(
        `INSERT INTO project_members (org_id, project_id, member_id, access_level, created_at, updated_at)
         VALUES ($1, $2, $3, $4, now(), now())
         ON CONFLICT (org_id, project_id, member_id) DO NOTHING
         RETURNING member_id`,
        [actor.orgId, projectId, memberId, level],
      );
      if (!inserted.length) throw Errors.conflict('This member already has an access entry for the project; use PATCH to change its level', 'project_member_exists');
      const [row] = await readProjectMembers(m, actor.orgId, projectId, memberId);
      return { member: toProjectMemberResponse(row) };
    });
  }
}
