import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { uuidRef } from '../../fields';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativesRepository } from '../../initiatives.repository';
import type { SuccessResponse } from '../../initiatives.response';
import { UnlinkInitiativeProjectCommand } from './unlink-initiative-project.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Edit/admin on every project of the initiative (including the one removed). Removing the last
 * project of an initiative without a primary project makes it organization-level: owner/admin
 * only. Issue and milestone links of that project stay (the audit reports them as dangling).
 */
@CommandHandler(UnlinkInitiativeProjectCommand)
export class UnlinkInitiativeProjectHandler implements ICommandHandler<UnlinkInitiativeProjectCommand, SuccessResponse> {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: InitiativeScope,
    private readonly initiatives: InitiativesRepository,
  ) {}

  async execute({ actor, initiativeId, projectId: raw }: UnlinkInitiativeProjectCommand): Promise<SuccessResponse> {
    const projectId = uuidRef({ project_id: raw }, 'project_id');
    await this.tx.run(async (m) => {
      const ini = await this.scope.writable(actor, initiativeId, m, true);
      if (!ini.linkedProjectIds.includes(projectId)) throw Errors.notFound('This project is not linked to the initiative');
      if (!ini.projectId && ini.linkedProjectIds.length === 1) await this.scope.assertInitiativeWrite(actor, { ...ini, projectIds: [] }, m);
      await this.initiatives.unlinkProject(actor.orgId, ini.id, projectId, m);
      await this.initiatives.touch(actor.orgId, ini.id, m);
    });
    return { success: true };
  }
}
