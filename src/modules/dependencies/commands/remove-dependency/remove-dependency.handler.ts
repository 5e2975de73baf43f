import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { RemoveDependencyCommand } from './remove-dependency.command';

/** Removes a dependency of this issue (either side; edit on this issue). */
@CommandHandler(RemoveDependencyCommand)
export class RemoveDependencyHandler implements ICommandHandler<RemoveDependencyCommand, void> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, issueId, dependencyId }: RemoveDependencyCommand): Promise<void> {
    const root = await this.access.assertIssueWrite(actor, issueId, 'edit');
    await this.db.transaction(async (m) => {
    const res: unknown[] = await m.query(
        `DELETE FROM issue_dependencies d
          WHERE d.org_id = $1 AND d.id = $2 AND (d.blocking_issue_id = $3 OR d.blocked_issue_id = $3)
        RETURNING d.blocking_issue_id, d.blocked_issue_id,
          (SELECT project_id FROM issues WHERE org_id = d.org_id AND id = d.blocking_issue_id) AS blocking_project_id,
          (SELECT project_id FROM issues WHERE org_id = d.org_id AND id = d.blocked_issue_id) AS blocked_project_id`,
        [actor.orgId, dependencyId, root.id],
      );
    // DELETE … RETURNING comes back as [rows, count].
    const rows = (Array.isArray(res[0]) ? res[0] : res) as Array<{ blocking_issue_id: string; blocked_issue_id: string; blocking_project_id: string | null; blocked_project_id: string | null }>;
    const d = rows[0];
    if (!d) throw Errors.notFound('Dependency not found');
    const meta = { dependency_id: dependencyId, blocking_issue_id: d.blocking_issue_id, blocked_issue_id: d.blocked_issue_id };
    const snap = snapshotOf(actor);
    await this.events.stage(m, new IssueActivityEvent(actor.orgId, d.blocked_issue_id, d.blocked_project_id, actor.memberId, snap, 'dependency.removed', { ...meta, relation: 'blocked_by' }));
    await this.events.stage(m, new IssueActivityEvent(actor.orgId, d.blocking_issue_id, d.blocking_project_id, actor.memberId, snap, 'dependency.removed', { ...meta, relation: 'blocking' }));
    });
  }
}
