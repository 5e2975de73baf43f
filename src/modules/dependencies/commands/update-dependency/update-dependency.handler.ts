import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { toDependencyRecord } from '../../dependencies.mapper';
import type { DependencyRecord } from '../../dependencies.response';
import { loadDependencyRows, ReadableIssues, readReleaseColumnId, resolveReleaseColumn } from '../../dependency.reader';
import { DependencyRules } from '../../dependency-rules.service';
import { UpdateDependencyCommand } from './update-dependency.command';

/**
 * Changes the release column of a dependency of this issue (edit on this issue). A dependency
 * whose blocking issue the caller cannot read is concealed (404).
 */
@CommandHandler(UpdateDependencyCommand)
export class UpdateDependencyHandler implements ICommandHandler<UpdateDependencyCommand, DependencyRecord> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly rules: DependencyRules,
  ) {}

  async execute({ actor, issueId, dependencyId, body }: UpdateDependencyCommand): Promise<DependencyRecord> {
    const root = await this.access.assertIssueWrite(actor, issueId, 'edit');
    const columnId = readReleaseColumnId(body, true)!;
    const readable = new ReadableIssues(this.access, actor);
    const sat = this.rules.satisfiedSql('d', 'b');
    const row = await this.db.transaction(async (m) => {
      const before = (await loadDependencyRows(m, sat, actor.orgId, root.id, dependencyId))[0];
      if (!before || !before.blocker_project_id || !(await readable.canRead(before.blocker_project_id))) throw Errors.notFound('Dependency not found');
      await resolveReleaseColumn(m, actor.orgId, before.blocker_project_id, columnId);
      await m.query('UPDATE issue_dependencies SET release_column_id = $3 WHERE org_id = $1 AND id = $2', [actor.orgId, dependencyId, columnId]);
      return (await loadDependencyRows(m, sat, actor.orgId, root.id, dependencyId))[0];
    });
    return toDependencyRecord(row, await readable.canRead(row.o_project_id), true);
  }
}
