import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { toDependencyRecord } from '../../dependencies.mapper';
import type { DependencyRecord } from '../../dependencies.response';
import { DependenciesRepository } from '../../dependencies.repository';
import { ReadableIssues, readReleaseColumnId, resolveReleaseColumn } from '../../dependency.reader';
import { UpdateDependencyCommand } from './update-dependency.command';
import { TxRunner } from '../../../../database/tx-runner';

/**
 * Changes the release column of a dependency of this issue (edit on this issue). A dependency
 * whose blocking issue the caller cannot read is concealed (404).
 */
@CommandHandler(UpdateDependencyCommand)
export class UpdateDependencyHandler implements ICommandHandler<UpdateDependencyCommand, DependencyRecord> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly dependencies: DependenciesRepository,
  ) {}

  async execute({ actor, issueId, dependencyId, body }: UpdateDependencyCommand): Promise<DependencyRecord> {
    const root = await this.access.assertIssueWrite(actor, issueId, 'edit');
    const columnId = readReleaseColumnId(body, true)!;
    const readable = new ReadableIssues(this.access, actor);
    const row = await this.tx.run(async (m) => {
      const before = await this.dependencies.rowOf(actor.orgId, root.id, dependencyId, m);
      if (!before || !before.blocker_project_id || !(await readable.canRead(before.blocker_project_id))) throw Errors.notFound('Dependency not found');
      await resolveReleaseColumn(this.dependencies, m, actor.orgId, before.blocker_project_id, columnId);
      await this.dependencies.setReleaseColumn(actor.orgId, dependencyId, columnId, m);
      return (await this.dependencies.rowOf(actor.orgId, root.id, dependencyId, m))!;
    });
    return toDependencyRecord(row, await readable.canRead(row.o_project_id), true);
  }
}
