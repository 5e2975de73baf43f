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

/** The decision-relevant state of issues (inside the caller's transaction). */
export async function loadIssueFacts(m: EntityManager, orgId: string, ids: string[]): Promise<Map<string, IssueFacts>> {
  if (!ids.length) return new Map();
  const rows: Array<{
    id: string;
    status: string;
    priority: number;
    project_id: string | null;
    title: string;
    number: number;
    created_by_member_id: string | null;
    archived: boolean;
    assignee_ids: string[];
  }> = await m.query(
    `SELECT i.id, i.status, i.priority, i.project_id, i.title, i.number, i.created_by_member_id, i.archived_at IS NOT NULL AS archived,
            COALESCE((SELECT array_agg(a.member_id ORDER BY a.position, a.created_at, a.member_id) FROM issue_assignees a
                       WHERE a.org_id = i.org_id AND a.issue_id = i.id), '{}') AS assignee_ids
       FROM issues i WHERE i.org_id = $1 AND i.id = ANY($2::uuid[])`,
    [orgId, ids],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        status: r.status,
        priority: r.priority,
        projectId: r.project_id,
        assigneeIds: r.assignee_ids,
        title: r.title,
        number: r.number,
        createdByMemberId: r.created_by_member_id,
        archived: r.archived,
      },
    ]),
  );
}

/** Stages `created` events for new issues (inside their transaction). */
export async function stageIssuesCreated(
  events: DomainEvents,
  m: EntityManager,
  orgId: string,
  ids: string[],
  actor: Actor | EventActor,
  origin: ChangeOrigin = MEMBER_ORIGIN,
): Promise<void> {
  const facts = await loadIssueFacts(m, orgId, ids);
  await stageIssuesCreatedWith(events, m, orgId, ids.filter((id) => facts.has(id)).map((id) => ({ id, facts: facts.get(id)! })), actor, origin);
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
  m: EntityManager,
  orgId: string,
  issueId: string,
  kind: IssueChangeKind,
  actor: Actor | EventActor,
  before: IssueFacts,
  changedFields: string[],
  origin: ChangeOrigin = MEMBER_ORIGIN,
): Promise<void> {
  const after = kind === 'deleted' ? before : (await loadIssueFacts(m, orgId, [issueId])).get(issueId);
  if (!after) return;
  const added = after.assigneeIds.filter((id) => !before.assigneeIds.includes(id));
  await events.stage(m, new IssueChangedEvent(orgId, issueId, kind, toEventActor(actor), before, after, [...changedFields].sort(), added, origin));
}

export function toEventActor(a: Actor | EventActor): EventActor {
  return 'principal' in a ? eventActorOf(a) : a;
}
