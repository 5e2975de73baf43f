import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { FormulaKpiRecalculator } from '../../../strategy/formula/formula-kpi-recalculator';
import { ProjectsRepository } from '../../projects.repository';
import type { ProjectsSuccessResponse } from '../../projects.response';
import { DeleteProjectCommand } from './delete-project.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Permanent delete by an organization owner/admin; the schema cascades to everything in the
 * project. Formula KPIs of the organization are recalculated in the same transaction (the
 * project's issues leave the linked work they were counted in).
 */
@CommandHandler(DeleteProjectCommand)
export class DeleteProjectHandler implements ICommandHandler<DeleteProjectCommand> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly formula: FormulaKpiRecalculator,
    private readonly projects: ProjectsRepository,
  ) {}

  async execute({ actor, projectId, confirmation }: DeleteProjectCommand): Promise<ProjectsSuccessResponse> {
    await this.access.assertProjectRead(actor, projectId);
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can delete projects');
    if (confirmation !== 'DELETE') throw Errors.validation('Send { "confirmation": "DELETE" } to delete the project and everything in it');
    await this.tx.run(async (m) => {
      await this.formula.lockIn(m, actor.orgId); // before the delete's SET NULL locks KPI rows (see lockIn)
      if (!(await this.projects.delete(actor.orgId, projectId, m))) throw Errors.notFound('Project not found');
      await this.formula.recalculateForOrgIn(m, actor.orgId);
    });
    return { success: true };
  }
}
