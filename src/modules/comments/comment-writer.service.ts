import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import { Actor, actorForMember, type MemberAccessRow } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { type ChangeOrigin, CommentAddedEvent, DomainEvents, eventActorOf, MEMBER_ORIGIN } from '../../common/events/domain-events';
import { isUuid } from '../../common/http/validation';
import { MembersRepository } from '../members/members.repository';
import { NotificationPreferences } from '../notifications/notification-preferences.service';
import { cleanCommentBody, PreparedCommentBody } from './comment-body';
import { toCommentResponses } from './comment.mapper';
import { type CommentAuthorRow, type CommentRelated, CommentsRepository, type ParentCommentRow } from './comments.repository';

export interface MentionOutcome {
  requested: number;
  created: number;
  skipped: Array<{ member_id: unknown; reason: string }>;
}

export type MentionSkipReason =
  'invalid_member_id' | 'not_found' | 'self_mention' | 'no_project_access' | 'guest_unprojected_issue' | 'unsupported_member_type' | 'mentions_muted';

export const MAX_MENTIONS = 50;
const SOURCE_METADATA_KEYS = ['harness', 'thread_id', 'session_id', 'host_id'] as const;
const SOURCE_VALUE_MAX = 200;
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Validates the routing provenance an agent may attach to its comment: an object with only
 * `harness`, `thread_id`, `session_id`, `host_id` (strings of 1..200 characters without control
 * characters). Humans cannot send it. Empty object or null = none.
 */
export function cleanSourceMetadata(raw: unknown, actor: Actor, field = 'source_metadata'): Record<string, string> | null {
  if (raw === undefined || raw === null) return null;
  if (actor.memberType !== 'agent') throw Errors.validation(`${field} can only be sent by agents`);
  if (typeof raw !== 'object' || Array.isArray(raw)) throw Errors.validation(`${field} must be an object`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (!(SOURCE_METADATA_KEYS as readonly string[]).includes(k)) {
      throw Errors.validation(`${field} has an unknown key ${JSON.stringify(k.slice(0, 50))}; allowed: ${SOURCE_METADATA_KEYS.join(', ')}`);
    }
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw Errors.validation(`${field}.${k} must be a string`);
    const s = v.trim();
    if (!s.length) throw Errors.validation(`${field}.${k} must not be empty`);
    if (s.length > SOURCE_VALUE_MAX) throw Errors.validation(`${field}.${k} must be at most ${SOURCE_VALUE_MAX} characters`);
    if (CONTROL_RE.test(s)) throw Errors.validation(`${field}.${k} must not contain control characters`);
    out[k] = s;
  }
  return Object.keys(out).length ? out : null;
}

/** Unique requested entries (duplicates counted once), each a member id or the raw invalid value. */
export function parseMentionRequests(raw: unknown, field: string): Array<{ id: string | null; raw: unknown }> {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw Errors.validation(`${field} must be an array of { member_id }`);
  if (raw.length > MAX_MENTIONS) throw Errors.validation(`${field} can have at most ${MAX_MENTIONS} entries`);
  const seen = new Set<string>();
  const out: Array<{ id: string | null; raw: unknown }> = [];
  for (const item of raw) {
    let value: unknown = item;
    if (item && typeof item === 'object' && !Array.isArray(item)) {
      const rec = item as Record<string, unknown>;
      value = rec.member_id !== undefined ? rec.member_id : rec.memberId;
    }
    const id = isUuid(value) ? value.toLowerCase() : null;
    // strings keyed as they are (serializing a long one would cost more than comparing it)
    const key = id ?? (typeof value === 'string' ? `invalid-string:${value}` : `invalid:${JSON.stringify(value ?? null)}`);
    if (seen.has(key)) continue;
    seen.add(key);
    const shown = value === undefined || (typeof value === 'object' && value !== null) ? null : value;
    out.push({ id, raw: id ?? shown });
  }
  return out;
}

/**
 * The one comment writer (used by POST comments and by the issue PATCH `comment_body`): validates, sanitizes
 * and stores one comment and its mentions inside the caller's transaction; returns the
 * response-shaped comment and the mention outcome. The caller checks issue write access first
 * and stages the `comment.created` activity in the same transaction. The automation actor
 * (`automationActor`) writes an automation-authored comment: `author_type` `automation`, no author
 * member, no source metadata; `opts.origin` carries the rule run's depth into the event.
 */
@Injectable()
export class CommentWriter {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly events: DomainEvents,
    private readonly prefs: NotificationPreferences,
    private readonly comments: CommentsRepository,
    private readonly members: MembersRepository,
  ) {}

  async create(
    m: EntityManager,
    actor: Actor,
    issue: { id: string; projectId: string | null; title?: string; assigneeIds?: string[] },
    input: { body: unknown; mentions?: unknown; replyToCommentId?: unknown; sourceMetadata?: unknown },
    opts?: { bodyField?: string; origin?: ChangeOrigin },
  ): Promise<{ comment: Record<string, unknown>; mentions: MentionOutcome }> {
    const bodyField = opts?.bodyField ?? 'body';
    const body = input.body instanceof PreparedCommentBody ? input.body.value() : cleanCommentBody(input.body, bodyField);
    const mentionsField = bodyField === 'body' ? 'mentions' : bodyField.replace(/body$/, 'mentions');
    const requestedMentions = parseMentionRequests(input.mentions, mentionsField);
    const sourceMetadata = cleanSourceMetadata(
      input.sourceMetadata,
      actor,
      bodyField === 'body' ? 'source_metadata' : bodyField.replace(/body$/, 'source_metadata'),
    );
    const parent = await this.resolveReplyTo(m, actor.orgId, issue.id, input.replyToCommentId);
    const replyTo = parent?.id ?? null;

    const now = new Date();
    const c = {
      org_id: actor.orgId,
      id: randomUUID(),
      issue_id: issue.id,
      author_type: actor.isAutomation ? ('automation' as const) : ('member' as const),
      author_member_id: actor.isAutomation ? null : actor.memberId,
      body,
      reply_to_comment_id: replyTo,
      source_metadata: sourceMetadata,
      edited_at: null,
      deleted_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.comments.insert(c, m);
    const { outcome: mentions, mentioned } = await this.storeMentions(m, actor, issue, c.id, requestedMentions, now);
    // the response from what this transaction holds: the parent replied to and the author (the
    // caller, read with its credential); stored mentions are listed in the database's order
    const known = !mentioned.length && (actor.isAutomation || actor.avatarUrl !== undefined);
    const related: CommentRelated = known
      ? {
          parents: parent ? [parent.row] : [],
          authors: actor.isAutomation
            ? []
            : [
                {
                  id: actor.memberId,
                  display_name: actor.displayName,
                  type: actor.memberType as CommentAuthorRow['type'],
                  avatar_url: actor.avatarUrl ?? null,
                },
              ],
          mentions: [],
        }
      : await this.comments.related(actor.orgId, [c], m);
    const [comment] = toCommentResponses([c], related);
    await this.events.stage(
      m,
      new CommentAddedEvent(
        actor.orgId,
        issue.id,
        issue.projectId,
        c.id,
        eventActorOf(actor),
        replyTo,
        parent?.authorMemberId ?? null,
        mentioned,
        opts?.origin ?? MEMBER_ORIGIN,
        issue.title !== undefined && issue.assigneeIds ? { title: issue.title, assigneeIds: issue.assigneeIds } : undefined,
      ),
    );
    return { comment, mentions };
  }

  private async storeMentions(
    m: EntityManager,
    actor: Actor,
    issue: { id: string; projectId: string | null },
    commentId: string,
    requested: Array<{ id: string | null; raw: unknown }>,
    now: Date,
  ): Promise<{ outcome: MentionOutcome; mentioned: string[] }> {
    const outcome: MentionOutcome = { requested: requested.length, created: 0, skipped: [] };
    const mentioned: string[] = [];
    if (!requested.length) return { outcome, mentioned };
    const ids = requested.map((r) => r.id).filter((x): x is string => !!x);
    const rows: MemberAccessRow[] = ids.length ? await this.members.liveAccessAmong(actor.orgId, ids, m) : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const muted = await this.prefs.disabledAmong(
      actor.orgId,
      rows.map((r) => r.id),
      'mention.created',
      'in_app',
      m,
    );
    for (const r of requested) {
      const skip = (reason: MentionSkipReason) => outcome.skipped.push({ member_id: r.raw, reason });
      if (!r.id) {
        skip('invalid_member_id');
        continue;
      }
      const target = byId.get(r.id);
      if (!target) {
        skip('not_found');
        continue;
      }
      if (target.id === actor.memberId) {
        skip('self_mention');
        continue;
      }
      if (target.type !== 'human' && target.type !== 'agent') {
        skip('unsupported_member_type');
        continue;
      }
      const level = await this.access.issueLevel(actorForMember(actor.orgId, target), issue.projectId, m);
      if (!level) {
        skip(issue.projectId ? 'no_project_access' : 'guest_unprojected_issue');
        continue;
      }
      if (muted.has(target.id)) {
        skip('mentions_muted');
        continue;
      }
      if (await this.comments.addMention(actor.orgId, commentId, target.id, now, m)) {
        outcome.created += 1;
        mentioned.push(target.id);
      }
    }
    return { outcome, mentioned };
  }

  /** `reply_to_comment_id`: a live comment of the same issue (404 otherwise; 400 when not a UUID), with its author. */
  private async resolveReplyTo(
    m: EntityManager,
    orgId: string,
    issueId: string,
    raw: unknown,
  ): Promise<{ id: string; authorMemberId: string | null; row: ParentCommentRow } | null> {
    if (raw === undefined || raw === null || raw === '') return null;
    if (!isUuid(raw)) throw Errors.validation('reply_to_comment_id must be a comment id (UUID)');
    const target = await this.comments.replyTarget(orgId, issueId, raw.toLowerCase(), m);
    if (!target) throw Errors.notFound('Reply target comment not found');
    return { id: target.id, authorMemberId: target.author_member_id, row: target };
  }
}
