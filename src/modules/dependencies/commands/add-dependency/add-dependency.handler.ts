import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import { isUuid } from '../../../../common/http/validation';
import { DomainEvents, IssueActivityEvent, snapshotOf } from '../../../../common/events/domain-events';
import { toDependencyRecord } from '../../dependencies.mapper';
import type { DependencyRecord } from '../../dependencies.response';
import { DependenciesRepository } from '../../dependencies.repository';
import { isPgUnique, readReleaseColumnId, resolveReleaseColumn } from '../../dependency.reader';
import { AddDependencyCommand } from './add-dependency.command';
import { TxRunner } from '../../../../database/tx-runner';

const duplicate = () => Errors.conflict('This dependency already exists', 'dependency_exists');

function readOtherIssue(body: Record<string, unknown>): { otherId: string; otherBlocks: boolean } {
  const blockedBy = body.blockedByIssueId;
  const blocking = body.blockingIssueId;
  const given = [blockedBy, blocking].filter((v) => v !== undefined && v !== null);
  if (given.length !== 1) throw Errors.validation('Send exactly one of blockedByIssueId or blockingIssueId');
  const v = given[0];
  if (!isUuid(v)) throw Errors.validation(`${blockedBy != null ? 'blockedByIssueId' : 'blockingIssueId'} must be a UUID`);
  return { otherId: v.toLowerCase(), otherBlocks: blockedBy != null };
}

/**
 * Adds a dependency between this issue and another. Both must be readable (404), the caller needs
 * edit on this issue (403). The blocking issue must be in a project; self-dependencies and cycles
 * are 400, duplicates 409. Creation is serialized per organization (advisory lock) so two
 * concurrent requests cannot close a cycle together.
 */
@CommandHandler(AddDependencyCommand)
export class AddDependencyHandler implements ICommandHandler<AddDependencyCommand, DependencyRecord> {
  constructor(
    private readonly tx: TxRunner,
    private readonly access: AccessPolicyService,
    private readonly dependencies: DependenciesRepository,
    private readonly events: DomainEvents,
  ) {}

  async execute({ actor, issueId, body }: AddDependencyCommand): Promise<DependencyRecord> {
    const root = await this.access.assertIssueWrite(actor, issueId, 'edit');
    const { otherId, otherBlocks } = readOtherIssue(body);
    const requestedColumn = readReleaseColumnId(body, false);
    if (otherId === root.id) throw Errors.validation('An issue cannot depend on itself');
    const other = await this.access.assertIssueRead(actor, otherId);
    const blocker = otherBlocks ? other : root;
    const blocked = otherBlocks ? root : other;
    if (!blocker.projectId) throw Errors.validation('The blocking issue must belong to a project; a projectless issue may only be the blocked side');
    const id = randomUUID();
    const row = await this.tx.run(async (m) => {
      await this.dependencies.lockGraph(actor.orgId, m);
      const releaseColumnId = await resolveReleaseColumn(this.dependencies, m, actor.orgId, blocker.projectId!, requestedColumn);
      if (await this.dependencies.exists(actor.orgId, blocker.id, blocked.id, m)) throw duplicate();
      // A cycle appears when the blocker is already reachable from the blocked issue along "blocks" edges.
      if (await this.dependencies.reaches(actor.orgId, blocked.id, blocker.id, m)) {
        throw Errors.validation('This dependency would create a cycle', { reason: 'dependency_cycle' });
      }
      try {
        await this.dependencies.insert(
          { orgId: actor.orgId, id, blockingIssueId: blocker.id, blockedIssueId: blocked.id, releaseColumnId, createdByMemberId: actor.memberId },
          m,
        );
      } catch (e) {
        if (isPgUnique(e)) throw duplicate();
        throw e;
      }
      const added = (await this.dependencies.rowOf(actor.orgId, root.id, id, m))!;
      const meta = { dependency_id: id, blocking_issue_id: blocker.id, blocked_issue_id: blocked.id, release_column_id: added.release_column_id ?? null };
      const snap = snapshotOf(actor);
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, blocked.id, blocked.projectId, actor.memberId, snap, 'dependency.added', { ...meta, relation: 'blocked_by' }),
      );
      await this.events.stage(
        m,
        new IssueActivityEvent(actor.orgId, blocker.id, blocker.projectId, actor.memberId, snap, 'dependency.added', { ...meta, relation: 'blocking' }),
      );
      return added;
    });
    return toDependencyRecord(row, true, true);
  }
}
