import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { DependenciesRepository } from '../../dependencies.repository';
import { RemoveDependencyCommand } from './remove-dependency.command';
import { TxRunner } from '../../../../database/tx-runner';

/** Removes a dependency of this issue (either side; edit on this issue). */
@CommandHandler(RemoveDependencyCommand)
export class RemoveDependencyHandler implements ICommandHandler<RemoveDependencyCommand, void> {
  constructor(
    private readonly dependencies: DependenciesRepository,
    private readonly access: AccessPolicyService,
    private readonly events: DomainEvents,
    private readonly tx: TxRunner,
  ) {}

  async execute({ actor, issueId, dependencyId }: RemoveDependencyCommand): Promise<void> {
    const root = await this.access.assertIssueWrite(actor, issueId, 'edit');
    await this.tx.run(async (m) => {
      const d = await this.dependencies.remove(actor.orgId, dependencyId, root.id, m);
      if (!d) throw Errors.notFound('Dependency not found');
      const meta = { dependency_id: dependencyId, blocking_issue_id: d.blocking_issue_id, blocked_issue_id: d.blocked_issue_id };
      const snap = snapshotOf(actor);
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, d.blocked_issue_id, d.blocked_project_id, actor.memberId, snap, 'dependency.removed', {
          ...meta,
          relation: 'blocked_by',
        }),
      );
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, d.blocking_issue_id, d.blocking_project_id, actor.memberId, snap, 'dependency.removed', {
          ...meta,
          relation: 'blocking',
        }),
      );
    });
  }
}
