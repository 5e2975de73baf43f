import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { PlanService } from '../../../../common/plan/plan.service';
import { type ProjectPatch, ProjectsRepository } from '../../projects.repository';
import { toProjectResponse } from '../../projects.mapper';
import type { ProjectEnvelope } from '../../projects.response';
import { UpdateProjectCommand } from './update-project.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Project admins edit name, description, color, icon and status; reactivation is a plan-limited creation. */
@CommandHandler(UpdateProjectCommand)
export class UpdateProjectHandler implements ICommandHandler<UpdateProjectCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly plans: PlanService,
    private readonly projects: ProjectsRepository,
  ) {}

  async execute({ actor, projectId, dto }: UpdateProjectCommand): Promise<ProjectEnvelope> {
    const level = await this.access.assertProjectWrite(actor, projectId, 'admin');
    const patch: ProjectPatch = {};
    if (dto.name !== undefined) patch.name = dto.name;
    if (dto.description !== undefined) patch.description = dto.description;
    if (dto.color !== undefined) patch.color = dto.color;
    if (dto.icon !== undefined) patch.icon = dto.icon;
    if (dto.status !== undefined) patch.status = dto.status;
    if (!Object.keys(patch).length) throw Errors.validation('Nothing to update: send name, description, color, icon or status');
    const project = await this.tx.run(async (m) => {
      const current = await this.projects.findById(actor.orgId, projectId, m);
      if (!current) throw Errors.notFound('Project not found');
      if (patch.status === 'active' && current.status === 'archived') {
        // Locks the organization row, so concurrent reactivations and creations are counted one by one.
        await this.plans.assertCanAdd(m, actor.orgId, 'activeProjects');
      }
      await this.projects.update(actor.orgId, projectId, patch, new Date(), m);
      return (await this.projects.findById(actor.orgId, projectId, m))!;
    });
    return { project: toProjectResponse(project, level) };
  }
}
