import { Injectable } from '@nestjs/common';
import { type EntityManager } from 'typeorm';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import type { Tx } from '../../database/sql.service';
import type { ResolvedIssue } from '../issues/issue-reference.resolver';
import { InitiativeEventsPublisher } from './initiative-events';
import { type InitiativeRef, InitiativeScope, type TargetRef } from './initiative-scope.service';
import { InitiativeTargetsRepository } from './initiative-targets.repository';
import { InitiativesRepository, type LinkStatements } from './initiatives.repository';
import { TxRunner } from '../../database/tx-runner';

type Owner = { kind: 'initiative'; ini: InitiativeRef } | { kind: 'target'; ini: InitiativeRef; target: TargetRef };

/**
 * Issue and milestone link writes of initiatives and targets, each in one transaction that locks
 * the initiative row (so its project set cannot change between the check and the write). The
 * owner (initiative or target) is authorized first, then the issue or milestone is resolved.
 * Duplicate links are idempotent (`created: false`, 200); removing a missing link is 404.
 * Issue timeline rows in the same transaction; after commit, for initiative-level links, InitiativeLinksChangedEvent.
 */
@Injectable()
export class InitiativeLinks {
  constructor(
    private readonly tx: TxRunner,
    private readonly scope: InitiativeScope,
    private readonly publish: InitiativeEventsPublisher,
    private readonly initiatives: InitiativesRepository,
    private readonly targets: InitiativeTargetsRepository,
  ) {}

  /** Loads and authorizes the owner of a link write: the initiative, or a target of it. */
  private async owner(actor: Actor, m: Tx, initiativeId: string, targetId?: string): Promise<Owner> {
    if (targetId === undefined) return { kind: 'initiative', ini: await this.scope.writable(actor, initiativeId, m, true) };
    const ini = await this.scope.readable(actor, initiativeId, m, true);
    const target = await this.scope.target(actor, ini, targetId, m);
    await this.scope.assertTargetWrite(actor, target, ini, m);
    return { kind: 'target', ini, target };
  }

  /** The link statements of the owner's kind and the owner's id. */
  private linksOf(o: Owner): { links: LinkStatements; id: string } {
    return o.kind === 'initiative' ? { links: this.initiatives.links, id: o.ini.id } : { links: this.targets.links, id: o.target.id };
  }

  async linkIssue(
    actor: Actor,
    initiativeId: string,
    targetId: string | undefined,
    resolve: (ini: InitiativeRef, m: Tx) => Promise<ResolvedIssue> | ResolvedIssue,
  ) {
    const r = await this.tx.run(async (m) => {
      const o = await this.owner(actor, m, initiativeId, targetId);
      const issue = await resolve(o.ini, m);
      const t = this.linksOf(o);
      const created = await t.links.linkIssue(actor.orgId, t.id, issue.id, actor.memberId, m);
      if (created) await this.stageTimeline(m, actor, o, issue, 'linked');
      return { o, issue, created };
    });
    if (r.created) this.afterIssueChange(actor, r.o, 'linked');
    return r;
  }

  async unlinkIssue(
    actor: Actor,
    initiativeId: string,
    targetId: string | undefined,
    resolve: (ini: InitiativeRef, m: Tx) => Promise<ResolvedIssue> | ResolvedIssue,
  ) {
    const r = await this.tx.run(async (m) => {
      const o = await this.owner(actor, m, initiativeId, targetId);
      const issue = await resolve(o.ini, m);
      const t = this.linksOf(o);
      if (!(await t.links.unlinkIssue(actor.orgId, t.id, issue.id, m))) throw Errors.notFound('This issue is not linked');
      await this.stageTimeline(m, actor, o, issue, 'unlinked');
      return { o, issue };
    });
    this.afterIssueChange(actor, r.o, 'unlinked');
    return r;
  }

  async linkMilestone(actor: Actor, initiativeId: string, targetId: string | undefined, reference: string) {
    const r = await this.tx.run(async (m) => {
      const o = await this.owner(actor, m, initiativeId, targetId);
      const ms = await this.scope.milestoneForLink(actor, o.ini, reference, m);
      const t = this.linksOf(o);
      const created = await t.links.linkMilestone(actor.orgId, t.id, ms.id, actor.memberId, m);
      return { o, ms, created };
    });
    if (r.created) this.afterMilestoneChange(actor, r.o, 'milestone_linked');
    return r;
  }

  async unlinkMilestone(actor: Actor, initiativeId: string, targetId: string | undefined, milestoneId: string) {
    const r = await this.tx.run(async (m) => {
      const o = await this.owner(actor, m, initiativeId, targetId);
      const ms = await this.scope.milestoneById(actor, o.ini, milestoneId, m);
      const t = this.linksOf(o);
      if (!(await t.links.unlinkMilestone(actor.orgId, t.id, ms.id, m))) throw Errors.notFound('This milestone is not linked');
      return { o, ms };
    });
    this.afterMilestoneChange(actor, r.o, 'milestone_unlinked');
    return r;
  }

  private afterIssueChange(actor: Actor, o: Owner, what: 'linked' | 'unlinked'): void {
    if (o.kind === 'initiative') this.publish.linksChanged(actor.orgId, o.ini.id, [o.ini.goalId], what === 'linked' ? 'issue_linked' : 'issue_unlinked');
  }

  private async stageTimeline(m: EntityManager, actor: Actor, o: Owner, issue: ResolvedIssue, what: 'linked' | 'unlinked'): Promise<void> {
    if (o.kind === 'initiative') {
      await this.publish.timeline(m, actor, issue, `initiative.${what}`, { initiative_id: o.ini.id, initiative_title: o.ini.title });
    } else {
      await this.publish.timeline(m, actor, issue, `initiative_target.${what}`, {
        initiative_id: o.ini.id,
        initiative_title: o.ini.title,
        target_id: o.target.id,
        target_title: o.target.title,
      });
    }
  }

  private afterMilestoneChange(actor: Actor, o: Owner, change: 'milestone_linked' | 'milestone_unlinked'): void {
    if (o.kind === 'initiative') this.publish.linksChanged(actor.orgId, o.ini.id, [o.ini.goalId], change);
  }
}
