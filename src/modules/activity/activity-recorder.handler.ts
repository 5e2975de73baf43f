import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { EventsHandler, type IEventHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { IssueActivityEvent } from './events/issue-activity.event';

/** Writes that have been published but not yet stored; readers wait for them (read-your-writes in one process). */
@Injectable()
export class PendingActivity {
  private readonly pending = new Set<Promise<void>>();

  track(p: Promise<void>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** Resolves when every write published so far has finished (success or failure). */
  async settle(): Promise<void> {
    if (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}

/**
 * Stores every published IssueActivityEvent in `activity_events`. `metadata.actor` keeps the
 * immutable event-time snapshot of the actor; an automation actor has no member
 * (`actor_member_id` null, `metadata.actor` = { display_name: 'Automation', type: 'automation' }).
 * A failure to record history is logged and never breaks the request that caused it.
 */
@EventsHandler(IssueActivityEvent)
export class ActivityRecorder implements IEventHandler<IssueActivityEvent> {
  private readonly log = new Logger('ActivityRecorder');
  private lastAt = 0;

  constructor(
    private readonly db: DataSource,
    private readonly pending: PendingActivity,
  ) {}

  handle(e: IssueActivityEvent): void {
    // Strictly increasing timestamps keep events of one request in publication order.
    const ms = Math.max(e.at.getTime(), this.lastAt + 1);
    this.lastAt = ms;
    this.pending.track(this.record(e, new Date(ms)));
  }

  private async record(e: IssueActivityEvent, at: Date): Promise<void> {
    try {
      const automation = e.actor?.type === 'automation' || !e.actorMemberId;
      let actor: Record<string, unknown>;
      if (automation) {
        actor = { display_name: e.actor?.display_name || 'Automation', type: 'automation' };
      } else {
        let avatar = e.actor?.avatar_url ?? null;
        let name = e.actor?.display_name;
        let type = e.actor?.type;
        if (avatar === null || !name || !type) {
          const rows: Array<{ display_name: string; type: string; avatar_url: string | null }> = await this.db.query(
            'SELECT display_name, type, avatar_url FROM members WHERE org_id = $1 AND id = $2',
            [e.orgId, e.actorMemberId],
          );
          avatar ??= rows[0]?.avatar_url ?? null;
          name ||= rows[0]?.display_name ?? 'Unknown';
          type ||= (rows[0]?.type as 'human' | 'agent' | undefined) ?? 'human';
        }
        actor = { id: e.actorMemberId, display_name: name, type, avatar_url: avatar };
      }
      const metadata = { ...(e.metadata ?? {}), actor };
      await this.db.query(
        `INSERT INTO activity_events (org_id, id, issue_id, project_id, actor_member_id, action, metadata, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`,
        [e.orgId, randomUUID(), e.issueId, e.projectId, automation ? null : e.actorMemberId, e.action, JSON.stringify(metadata), at],
      );
    } catch (err) {
      this.log.warn(`Could not record ${e.action} for issue ${e.issueId}: ${(err as Error)?.message}`);
    }
  }
}
