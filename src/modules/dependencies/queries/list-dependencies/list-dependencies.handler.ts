import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { toDependencyEntry } from '../../dependencies.mapper';
import type { DependencyEntry, DependencyLists } from '../../dependencies.response';
import { DependenciesRepository } from '../../dependencies.repository';
import { ReadableIssues } from '../../dependency.reader';
import { ListDependenciesQuery } from './list-dependencies.query';

/**
 * `{ blocking, blockedBy }` of a readable issue. The other issue of an entry is `null` when the
 * caller cannot read it; release metadata and `satisfied` appear only when the blocking issue is
 * readable.
 */
@QueryHandler(ListDependenciesQuery)
export class ListDependenciesHandler implements IQueryHandler<ListDependenciesQuery, DependencyLists> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly dependencies: DependenciesRepository,
  ) {}

  async execute({ actor, issueId }: ListDependenciesQuery): Promise<DependencyLists> {
    const root = await this.access.assertIssueRead(actor, issueId);
    const rows = await this.dependencies.rowsOf(actor.orgId, root.id);
    const readable = new ReadableIssues(this.access, actor);
    const blocking: DependencyEntry[] = [];
    const blockedBy: DependencyEntry[] = [];
    for (const r of rows) {
      const otherReadable = await readable.canRead(r.o_project_id);
      if (r.blocking_issue_id === root.id) blocking.push(toDependencyEntry(r, otherReadable, true));
      else blockedBy.push(toDependencyEntry(r, otherReadable, otherReadable));
    }
    return { blocking, blockedBy };
  }
}
