import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { uuidRef } from '../../fields';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeReader } from '../../initiative.reader';
import { InitiativesRepository } from '../../initiatives.repository';
import type { InitiativeEnvelope } from '../../initiatives.response';
import { LinkInitiativeProjectCommand } from './link-initiative-project.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Edit/admin on every project already linked (owner/admin for an organization-level initiative)
 * and on the new one (404 unreadable, 403 view-only). 201 with the initiative; linking a project
 * that is already linked (or is the primary project) is idempotent: 200.
 */
@CommandHandler(LinkInitiativeProjectCommand)
export class LinkInitiativeProjectHandler implements ICommandHandler<LinkInitiativeProjectCommand, { status: number; body: InitiativeEnvelope }> {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: InitiativeScope,
    private readonly reader: InitiativeReader,
    private readonly initiatives: InitiativesRepository,
  ) {}

  async execute({ actor, initiativeId, dto }: LinkInitiativeProjectCommand): Promise<{ status: number; body: InitiativeEnvelope }> {
    const projectId = uuidRef(dto, 'project_id');
    const created = await this.tx.run(async (m) => {
      const ini = await this.scope.writable(actor, initiativeId, m, true);
      await this.scope.writableProject(actor, projectId, m);
      if (ini.projectIds.includes(projectId)) return false;
      await this.initiatives.linkProject(actor.orgId, ini.id, projectId, m);
      await this.initiatives.touch(actor.orgId, ini.id, m);
      return true;
    });
    return { status: created ? 201 : 200, body: { initiative: await this.reader.detail(actor, initiativeId) } };
  }
}
