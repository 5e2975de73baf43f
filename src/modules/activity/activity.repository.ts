import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { ActivityRow } from './activity.mapper';

/** The acting member as a timeline entry snapshots it. */
export interface ActorMemberRow {
  display_name: string;
  type: string;
  avatar_url: string | null;
}

/** A timeline entry as written. */
export interface NewActivityRow {
  orgId: string;
  id: string;
  /** null: a project-level entry */
  issueId: string | null;
  projectId: string | null;
  actorMemberId: string | null;
  action: string;
  metadata: Record<string, unknown>;
  createdAt: Date;
}

/** Filters of the organization feed (see ListOrgActivityHandler). */
export interface OrgActivityFilter {
  orgId: string;
  allProjects: boolean;
  projectIds: string[];
  projectless: boolean;
  byMemberId?: string;
  mineMemberId?: string;
  limit: number;
  offset: number;
}

export interface InitiativeScopeRow {
  id: string;
  project_id: string | null;
  linked: string[];
}

export interface TargetScopeRow {
  id: string;
  initiative_id: string;
  scope_type: string;
  scope: string[];
}

const COLUMNS = `e.id, e.action, e.issue_id, e.project_id, e.actor_member_id, e.metadata, e.created_at,
  am.id AS am_id, am.display_name AS am_display_name, am.type AS am_type, am.avatar_url AS am_avatar_url`;
const ACTOR_JOIN = 'LEFT JOIN members am ON am.org_id = e.org_id AND am.id = e.actor_member_id';

/** `activity_events`: the issue timelines and the organization feed. */
@Injectable()
export class ActivityRepository {
  constructor(private readonly sql: Sql) {}

  /** The current name, type and avatar of members (snapshots of new entries), by id. */
  async actorMembers(orgId: string, memberIds: string[], m?: Tx): Promise<Map<string, ActorMemberRow>> {
    const rows = await this.sql.rows<ActorMemberRow & { id: string }>(
      'SELECT id, display_name, type, avatar_url FROM members WHERE org_id = $1 AND id = ANY($2::uuid[])',
      [orgId, memberIds],
      m,
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Writes timeline entries, in one statement (in the transaction of the change they describe). */
  async insertMany(entries: NewActivityRow[], m?: Tx): Promise<void> {
    if (!entries.length) return;
    await this.sql.run(
      `INSERT INTO activity_events (org_id, id, issue_id, project_id, actor_member_id, action, metadata, created_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::jsonb[], $8::timestamptz[])`,
      [
        entries.map((e) => e.orgId),
        entries.map((e) => e.id),
        entries.map((e) => e.issueId),
        entries.map((e) => e.projectId),
        entries.map((e) => e.actorMemberId),
        entries.map((e) => e.action),
        entries.map((e) => JSON.stringify(e.metadata)),
        entries.map((e) => e.createdAt),
      ],
      m,
    );
  }

  /** One page (plus one row to tell whether more exist) of an issue's timeline, newest first. */
  issuePage(orgId: string, issueId: string, limit: number, offset: number, m?: Tx): Promise<ActivityRow[]> {
    return this.sql.rows<ActivityRow>(
      `SELECT ${COLUMNS} FROM activity_events e ${ACTOR_JOIN}
        WHERE e.org_id = $1 AND e.issue_id = $2
        ORDER BY e.created_at DESC, e.id DESC LIMIT $3 OFFSET $4`,
      [orgId, issueId, limit, offset],
      m,
    );
  }

  /** One page of the organization feed over the issues the filter lets through, newest first. */
  orgPage(f: OrgActivityFilter, m?: Tx): Promise<ActivityRow[]> {
    const params: unknown[] = [f.orgId, f.allProjects, f.allProjects ? [] : f.projectIds, f.projectless];
    // issue entries by the issue's current project; project-level entries (no issue) by theirs
    const where = [
      'e.org_id = $1',
      `(CASE WHEN e.issue_id IS NOT NULL
             THEN (i.project_id IS NULL AND $4::boolean) OR (i.project_id IS NOT NULL AND ($2::boolean OR i.project_id = ANY($3::uuid[])))
             ELSE e.project_id IS NOT NULL AND ($2::boolean OR e.project_id = ANY($3::uuid[])) END)`,
    ];
    if (f.byMemberId) {
      params.push(f.byMemberId);
      where.push(`e.actor_member_id = $${params.length}`);
    } else if (f.mineMemberId) {
      params.push(f.mineMemberId);
      const me = `$${params.length}`;
      where.push(`(i.assignee_id = ${me} OR i.created_by_member_id = ${me}
        OR EXISTS (SELECT 1 FROM issue_assignees ia WHERE ia.org_id = i.org_id AND ia.issue_id = i.id AND ia.member_id = ${me}))`);
    }
    params.push(f.limit, f.offset);
    return this.sql.rows<ActivityRow>(
      `SELECT ${COLUMNS} FROM activity_events e
         LEFT JOIN issues i ON i.org_id = e.org_id AND i.id = e.issue_id
         ${ACTOR_JOIN}
        WHERE ${where.join(' AND ')}
        ORDER BY e.created_at DESC, e.id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
      m,
    );
  }

  /** Initiatives named by entries, with the projects that decide who reads them (redaction). */
  initiativeScopes(orgId: string, ids: string[], m?: Tx): Promise<InitiativeScopeRow[]> {
    return this.sql.rows<InitiativeScopeRow>(
      `SELECT i.id, i.project_id, coalesce((SELECT array_agg(ip.project_id::text) FROM initiative_projects ip
                                             WHERE ip.org_id = i.org_id AND ip.initiative_id = i.id), '{}') AS linked
         FROM initiatives i WHERE i.org_id = $1 AND i.id = ANY($2::uuid[])`,
      [orgId, ids],
      m,
    );
  }

  /** Initiative targets named by entries, with their scope (redaction). */
  targetScopes(orgId: string, ids: string[], m?: Tx): Promise<TargetScopeRow[]> {
    return this.sql.rows<TargetScopeRow>(
      `SELECT t.id, t.initiative_id, t.scope_type, coalesce((SELECT array_agg(tp.project_id::text) FROM initiative_target_projects tp
                                                              WHERE tp.org_id = t.org_id AND tp.target_id = t.id), '{}') AS scope
         FROM initiative_targets t WHERE t.org_id = $1 AND t.id = ANY($2::uuid[])`,
      [orgId, ids],
      m,
    );
  }
}
