/**
 * One entry of an issue's timeline, published on the EventBus by any module AFTER its transaction
 * commits (`this.events.publish(new IssueActivityEvent(...))`). The activity module's handler
 * writes it to `activity_events`. Only meaningful task history goes here (lifecycle, comments,
 * assignees, labels, dependencies, subtasks, attachments, initiative/target links, PR links).
 */
export interface ActorSnapshot {
  id: string | null;
  display_name: string;
  type: 'human' | 'agent' | 'automation';
  avatar_url: string | null;
}

export class IssueActivityEvent {
  constructor(
    readonly orgId: string,
    readonly issueId: string,
    readonly projectId: string | null,
    /** Member id of the actor; null for automation. */
    readonly actorMemberId: string | null,
    /** Immutable snapshot of the actor at event time (stored as metadata.actor). */
    readonly actor: ActorSnapshot,
    /** e.g. `issue.created`, `issue.updated`, `issue.archived`, `issue.unarchived`, `comment.created`, `label.added`, `dependency.added`, `subtask.created`, `attachment.added`. */
    readonly action: string,
    /** Safe, bounded details (changed field names, ids, titles); never comment bodies or secrets. */
    readonly metadata: Record<string, unknown> = {},
    readonly at: Date = new Date(),
  ) {}
}

export const AUTOMATION_ACTOR: ActorSnapshot = { id: null, display_name: 'Automation', type: 'automation', avatar_url: null };

/** The snapshot of the acting member (from the request's Actor); the automation actor is AUTOMATION_ACTOR. */
export const snapshotOf = (a: { memberId: string; displayName: string; memberType: 'human' | 'agent' | 'automation' }, avatarUrl: string | null = null): ActorSnapshot =>
  a.memberType === 'automation'
    ? AUTOMATION_ACTOR
    : {
        id: a.memberId,
        display_name: a.displayName,
        type: a.memberType,
        avatar_url: avatarUrl,
      };
