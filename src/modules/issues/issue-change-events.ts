import type { EntityManager } from 'typeorm';
import type { Actor } from '../../common/auth/principal';
import {
  type ChangeOrigin,
  type DomainEvents,
  type EventActor,
  eventActorOf,
  type IssueChangeKind,
  IssueChangedEvent,
  type IssueFacts,
  MEMBER_ORIGIN,
} from '../../common/events/domain-events';
import type { IssuesRepository } from './issues.repository';

/** Stages `created` events for new issues (inside their transaction). */
export async function stageIssuesCreated(
  events: DomainEvents,
  issues: IssuesRepository,
  m: EntityManager,
  orgId: string,
  ids: string[],
  actor: Actor | EventActor,
  origin: ChangeOrigin = MEMBER_ORIGIN,
): Promise<void> {
  const facts = await issues.facts(orgId, ids, m);
  await stageIssuesCreatedWith(
    events,
    m,
    orgId,
    ids.filter((id) => facts.has(id)).map((id) => ({ id, facts: facts.get(id)! })),
    actor,
    origin,
  );
}

/** As stageIssuesCreated, for a writer that already holds the new issues' facts (no reload). */
export async function stageIssuesCreatedWith(
  events: DomainEvents,
  m: EntityManager,
  orgId: string,
  created: Array<{ id: string; facts: IssueFacts }>,
  actor: Actor | EventActor,
  origin: ChangeOrigin = MEMBER_ORIGIN,
): Promise<void> {
  const who = toEventActor(actor);
  await events.stage(m, ...created.map(({ id, facts }) => new IssueChangedEvent(orgId, id, 'created', who, null, facts, [], facts.assigneeIds, origin)));
}

/** Stages one change of an existing issue, given its facts before the change (inside the transaction). */
export async function stageIssueChanged(
  events: DomainEvents,
  issues: IssuesRepository,
  m: EntityManager,
  orgId: string,
  issueId: string,
  kind: IssueChangeKind,
  actor: Actor | EventActor,
  before: IssueFacts,
  changedFields: string[],
  origin: ChangeOrigin = MEMBER_ORIGIN,
): Promise<void> {
  const after = kind === 'deleted' ? before : (await issues.facts(orgId, [issueId], m)).get(issueId);
  if (!after) return;
  const added = after.assigneeIds.filter((id) => !before.assigneeIds.includes(id));
  await events.stage(m, new IssueChangedEvent(orgId, issueId, kind, toEventActor(actor), before, after, [...changedFields].sort(), added, origin));
}

/** As stageIssueChanged, for a writer that already holds the facts after the change (no reload). */
export async function stageIssueChangedWith(
  events: DomainEvents,
  m: EntityManager,
  orgId: string,
  issueId: string,
  kind: IssueChangeKind,
  actor: Actor | EventActor,
  before: IssueFacts,
  after: IssueFacts,
  changedFields: string[],
  origin: ChangeOrigin = MEMBER_ORIGIN,
): Promise<void> {
  const added = after.assigneeIds.filter((id) => !before.assigneeIds.includes(id));
  await events.stage(m, new IssueChangedEvent(orgId, issueId, kind, toEventActor(actor), before, after, [...changedFields].sort(), added, origin));
}

export function toEventActor(a: Actor | EventActor): EventActor {
  return 'principal' in a ? eventActorOf(a) : a;
}
