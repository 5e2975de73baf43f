import { Injectable } from '@nestjs/common';
import { independently, Sql, type Tx } from '../../database/sql.service';
import type { InitiativeInput, InitiativeStatus } from './initiative-input';

/** An initiative as responses show it, with the projects linked to it (oldest link first). */
export interface InitiativeRow {
  id: string;
  title: string;
  name: string;
  description: string | null;
  goal_id: string | null;
  owner_member_id: string | null;
  status: InitiativeStatus;
  start_date: string | null;
  target_date: string | null;
  project_id: string | null;
  created_by_member_id: string | null;
  created_at: Date;
  updated_at: Date;
  linked_project_ids: string[];
}

/** What the access rules need of an initiative: its goal, primary project and linked projects. */
export interface InitiativeRefRow {
  id: string;
  title: string;
  goal_id: string | null;
  project_id: string | null;
  linked: string[];
}

/** An expected impact of an initiative on a KPI, with the KPI's name, goal and project. */
export interface InitiativeKpiImpactRow {
  id: string;
  initiative_id: string;
  kpi_id: string;
  expected_impact: string | null;
  created_by_member_id: string | null;
  created_at: Date;
  name: string;
  goal_id: string | null;
  project_id: string | null;
}

/** An issue link (of an initiative or a target) with the linked issue's projection. */
export interface IssueLinkRow {
  issue_id: string;
  created_by_member_id: string | null;
  created_at: Date;
  number: number;
  title: string;
  status: string;
  priority: number;
  project_id: string | null;
  milestone_id: string | null;
  assignee_id: string | null;
  due_date: string | null;
  archived_at: Date | null;
  issue_updated_at: Date;
  project_key: string | null;
}

/** A milestone link (of an initiative or a target) with the milestone's name, project, status and date. */
export interface MilestoneLinkRow {
  milestone_id: string;
  created_by_member_id: string | null;
  created_at: Date;
  name: string;
  project_id: string;
  status: string;
  target_date: string | null;
}

/** An initiative an issue is directly linked to, with its linked projects. */
export interface IssueInitiativeRow {
  id: string;
  title: string;
  name: string;
  status: string;
  goal_id: string | null;
  project_id: string | null;
  linked_at: Date;
  linked: string[];
}

/** Filters of the initiative list (absent = any). */
export interface InitiativeListFilter {
  /** Readable project ids of a caller who cannot read every project. */
  readableProjectIds?: string[] | null;
  goalId?: string;
  ownerId?: string;
  statuses?: string[];
  projectId?: string;
}

/** A new initiative's stored fields (`title` is stored as `name` too). */
export interface NewInitiative {
  id: string;
  title: string;
  description: string | null;
  goalId: string | null;
  ownerMemberId: string | null;
  status: string;
  startDate: string | null;
  targetDate: string | null;
  projectId: string | null;
  createdByMemberId: string;
}

const CHANGE_COLUMNS: Record<keyof InitiativeInput, string> = {
  title: 'title',
  description: 'description',
  goalId: 'goal_id',
  ownerId: 'owner_member_id',
  status: 'status',
  startDate: 'start_date',
  targetDate: 'target_date',
  projectId: 'project_id',
};

const INITIATIVE_SELECT = `SELECT i.id, i.title, i.name, i.description, i.goal_id, i.owner_member_id, i.status,
    to_char(i.start_date, 'YYYY-MM-DD') AS start_date, to_char(i.target_date, 'YYYY-MM-DD') AS target_date,
    i.project_id, i.created_by_member_id, i.created_at, i.updated_at,
    coalesce((SELECT array_agg(ip.project_id::text ORDER BY ip.created_at, ip.project_id) FROM initiative_projects ip
               WHERE ip.org_id = i.org_id AND ip.initiative_id = i.id), '{}') AS linked_project_ids
  FROM initiatives i`;

/**
 * Guests (and anyone without an organization-wide baseline) see initiatives bound to a readable
 * project, or organization-level ones linked to a readable project. `$n` holds the readable ids.
 */
const visibleInitiativeSql = (param: string): string =>
  `(i.project_id = ANY(${param}::uuid[]) OR (i.project_id IS NULL AND EXISTS (SELECT 1 FROM initiative_projects vp
     WHERE vp.org_id = i.org_id AND vp.initiative_id = i.id AND vp.project_id = ANY(${param}::uuid[]))))`;

/** Issue columns for the linked-issue projection (`i` = issues, `p` = its project). */
const ISSUE_PROJECTION_SQL = `i.number, i.title, i.status, i.priority, i.project_id, i.milestone_id, i.assignee_id,
  to_char(i.due_date, 'YYYY-MM-DD') AS due_date, i.archived_at, i.updated_at AS issue_updated_at, p.key AS project_key`;

/** A link table of issues or milestones and the column naming its owner (initiative or target). */
export type LinkTable =
  | { table: 'initiative_issues' | 'initiative_target_issues'; ownerColumn: 'initiative_id' | 'target_id' }
  | { table: 'initiative_milestones' | 'initiative_target_milestones'; ownerColumn: 'initiative_id' | 'target_id' };

/**
 * The link statements shared by initiatives and targets (their link tables have the same shape);
 * InitiativesRepository and InitiativeTargetsRepository call them with their own tables.
 */
export class LinkStatements {
  constructor(
    private readonly sql: Sql,
    private readonly issues: LinkTable,
    private readonly milestones: LinkTable,
  ) {}

  /** Issue links of owner `ownerId` (one with `issueId`), oldest first, with the issue projection. */
  issueLinks(orgId: string, ownerId: string, issueId?: string, m?: Tx): Promise<IssueLinkRow[]> {
    return this.sql.rows<IssueLinkRow>(
      `SELECT x.issue_id, x.created_by_member_id, x.created_at, ${ISSUE_PROJECTION_SQL}
       FROM ${this.issues.table} x
       JOIN issues i ON i.org_id = x.org_id AND i.id = x.issue_id
       LEFT JOIN projects p ON p.org_id = i.org_id AND p.id = i.project_id
      WHERE x.org_id = $1 AND x.${this.issues.ownerColumn} = $2 AND ($3::uuid IS NULL OR x.issue_id = $3)
      ORDER BY x.created_at, x.issue_id`,
      [orgId, ownerId, issueId ?? null],
      m,
    );
  }

  /** Milestone links of owner `ownerId` (one with `milestoneId`), oldest first, with the milestone. */
  milestoneLinks(orgId: string, ownerId: string, milestoneId?: string, m?: Tx): Promise<MilestoneLinkRow[]> {
    return this.sql.rows<MilestoneLinkRow>(
      `SELECT x.milestone_id, x.created_by_member_id, x.created_at, ms.name, ms.project_id, ms.status, to_char(ms.target_date, 'YYYY-MM-DD') AS target_date
       FROM ${this.milestones.table} x JOIN milestones ms ON ms.org_id = x.org_id AND ms.id = x.milestone_id
      WHERE x.org_id = $1 AND x.${this.milestones.ownerColumn} = $2 AND ($3::uuid IS NULL OR x.milestone_id = $3)
      ORDER BY x.created_at, x.milestone_id`,
      [orgId, ownerId, milestoneId ?? null],
      m,
    );
  }

  /** Links issue `issueId` to owner `ownerId`; false when it already was. */
  async linkIssue(orgId: string, ownerId: string, issueId: string, memberId: string, m?: Tx): Promise<boolean> {
    const rows = await this.sql.rows(
      `INSERT INTO ${this.issues.table} (org_id, ${this.issues.ownerColumn}, issue_id, created_by_member_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING issue_id`,
      [orgId, ownerId, issueId, memberId],
      m,
    );
    return rows.length > 0;
  }

  /** Removes the link of issue `issueId` to owner `ownerId`; false when there was none. */
  async unlinkIssue(orgId: string, ownerId: string, issueId: string, m?: Tx): Promise<boolean> {
    const rows = await this.sql.rows(
      `DELETE FROM ${this.issues.table} WHERE org_id = $1 AND ${this.issues.ownerColumn} = $2 AND issue_id = $3 RETURNING issue_id`,
      [orgId, ownerId, issueId],
      m,
    );
    return rows.length > 0;
  }

  /** Links milestone `milestoneId` to owner `ownerId`; false when it already was. */
  async linkMilestone(orgId: string, ownerId: string, milestoneId: string, memberId: string, m?: Tx): Promise<boolean> {
    const rows = await this.sql.rows(
      `INSERT INTO ${this.milestones.table} (org_id, ${this.milestones.ownerColumn}, milestone_id, created_by_member_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING milestone_id`,
      [orgId, ownerId, milestoneId, memberId],
      m,
    );
    return rows.length > 0;
  }

  /** Removes the link of milestone `milestoneId` to owner `ownerId`; false when there was none. */
  async unlinkMilestone(orgId: string, ownerId: string, milestoneId: string, m?: Tx): Promise<boolean> {
    const rows = await this.sql.rows(
      `DELETE FROM ${this.milestones.table} WHERE org_id = $1 AND ${this.milestones.ownerColumn} = $2 AND milestone_id = $3 RETURNING milestone_id`,
      [orgId, ownerId, milestoneId],
      m,
    );
    return rows.length > 0;
  }
}

/**
 * Initiatives (table `initiatives`) and their links: projects, KPI impacts, issues, milestones
 * (`initiative_projects`, `initiative_kpi_impacts`, `initiative_issues`, `initiative_milestones`).
 * The link reads join the linked issue, project, milestone or KPI they show.
 */
@Injectable()
export class InitiativesRepository {
  /** Issue and milestone links of initiatives. */
  readonly links: LinkStatements;

  constructor(private readonly sql: Sql) {
    this.links = new LinkStatements(
      sql,
      { table: 'initiative_issues', ownerColumn: 'initiative_id' },
      { table: 'initiative_milestones', ownerColumn: 'initiative_id' },
    );
  }

  /** Locks initiative `id` (FOR UPDATE) for the rest of transaction `m`, so its project set cannot change. */
  async lock(orgId: string, id: string, m: Tx): Promise<void> {
    await this.sql.run('SELECT 1 FROM initiatives WHERE org_id = $1 AND id = $2 FOR UPDATE', [orgId, id], m);
  }

  /** Goal, primary project and linked projects of initiative `id`, or undefined. */
  findRef(orgId: string, id: string, m?: Tx): Promise<InitiativeRefRow | undefined> {
    return this.sql.row<InitiativeRefRow>(
      `SELECT i.id, i.title, i.goal_id, i.project_id,
              coalesce((SELECT array_agg(ip.project_id::text ORDER BY ip.created_at, ip.project_id) FROM initiative_projects ip
                         WHERE ip.org_id = i.org_id AND ip.initiative_id = i.id), '{}') AS linked
         FROM initiatives i WHERE i.org_id = $1 AND i.id = $2`,
      [orgId, id],
      m,
    );
  }

  /** Initiative `id` of the organization, or undefined. */
  find(orgId: string, id: string, m?: Tx): Promise<InitiativeRow | undefined> {
    return this.sql.row<InitiativeRow>(`${INITIATIVE_SELECT} WHERE i.org_id = $1 AND i.id = $2`, [orgId, id], m);
  }

  /** One page of the initiatives matching `f`, newest first, and their total. */
  async page(orgId: string, f: InitiativeListFilter, limit: number, offset: number, m?: Tx): Promise<{ rows: InitiativeRow[]; total: number }> {
    const args: unknown[] = [orgId];
    const bind = (v: unknown) => {
      args.push(v);
      return `$${args.length}`;
    };
    const where = ['i.org_id = $1'];
    if (f.readableProjectIds) where.push(visibleInitiativeSql(bind(f.readableProjectIds)));
    if (f.goalId) where.push(`i.goal_id = ${bind(f.goalId)}`);
    if (f.ownerId) where.push(`i.owner_member_id = ${bind(f.ownerId)}`);
    if (f.statuses) where.push(`i.status = ANY(${bind(f.statuses)}::text[])`);
    if (f.projectId) {
      const p = bind(f.projectId);
      where.push(
        `(i.project_id = ${p} OR EXISTS (SELECT 1 FROM initiative_projects fp WHERE fp.org_id = i.org_id AND fp.initiative_id = i.id AND fp.project_id = ${p}))`,
      );
    }
    const filter = where.join(' AND ');
    const [rows, count] = await independently(m, [
      () =>
        this.sql.planned<InitiativeRow>(`${INITIATIVE_SELECT} WHERE ${filter} ORDER BY i.created_at DESC, i.id DESC LIMIT ${limit} OFFSET ${offset}`, args, m),
      () => this.sql.planned<{ n: number }>(`SELECT count(*)::int AS n FROM initiatives i WHERE ${filter}`, args, m),
    ]);
    return { rows, total: count[0].n };
  }

  /** Stores a new initiative of the organization. */
  async insert(orgId: string, n: NewInitiative, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO initiatives (org_id, id, title, name, description, goal_id, owner_member_id, status, start_date, target_date, project_id, created_by_member_id)
       VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [orgId, n.id, n.title, n.description, n.goalId, n.ownerMemberId, n.status, n.startDate, n.targetDate, n.projectId, n.createdByMemberId],
      m,
    );
  }

  /** Stored start and target dates (YYYY-MM-DD) of initiative `id`, or undefined. */
  dates(orgId: string, id: string, m?: Tx): Promise<{ start_date: string | null; target_date: string | null } | undefined> {
    return this.sql.row<{ start_date: string | null; target_date: string | null }>(
      `SELECT to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(target_date, 'YYYY-MM-DD') AS target_date FROM initiatives WHERE org_id = $1 AND id = $2`,
      [orgId, id],
      m,
    );
  }

  /** Writes the given fields of initiative `id` (a title also as its name) and updated_at; nothing when none is given. */
  async update(orgId: string, id: string, changes: InitiativeInput, m?: Tx): Promise<void> {
    const sets: string[] = [];
    const args: unknown[] = [orgId, id];
    for (const [k, v] of Object.entries(changes) as Array<[keyof InitiativeInput, unknown]>) {
      args.push(v);
      sets.push(`${CHANGE_COLUMNS[k]} = $${args.length}`);
      if (k === 'title') sets.push(`name = $${args.length}`);
    }
    if (sets.length) await this.sql.planned(`UPDATE initiatives SET ${sets.join(', ')}, updated_at = now() WHERE org_id = $1 AND id = $2`, args, m);
  }

  /** Marks initiative `id` as changed now (updated_at). */
  async touch(orgId: string, id: string, m?: Tx): Promise<void> {
    await this.sql.run('UPDATE initiatives SET updated_at = now() WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** Deletes initiative `id` (its links and targets cascade; KPI snapshots attributed to it lose the attribution (foreign keys to it are NO ACTION, so the references are cleared first: migration 1765660000000, docs/CITUS.md)). */
  async delete(orgId: string, id: string, m: Tx): Promise<void> {
    await this.sql.run('UPDATE kpi_snapshots SET attributed_to_initiative_id = NULL WHERE org_id = $1 AND attributed_to_initiative_id = $2', [orgId, id], m);
    await this.sql.run('DELETE FROM initiatives WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** Links project `projectId` to initiative `id` (nothing when it already is). */
  async linkProject(orgId: string, id: string, projectId: string, m?: Tx): Promise<void> {
    await this.sql.run(
      'INSERT INTO initiative_projects (org_id, initiative_id, project_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [orgId, id, projectId],
      m,
    );
  }

  /** Removes the link of project `projectId` to initiative `id`. */
  async unlinkProject(orgId: string, id: string, projectId: string, m?: Tx): Promise<void> {
    await this.sql.run('DELETE FROM initiative_projects WHERE org_id = $1 AND initiative_id = $2 AND project_id = $3', [orgId, id, projectId], m);
  }

  /** KPI impacts of initiative `id` (one with `impactId`), oldest first, with their KPI. */
  kpiImpacts(orgId: string, id: string, impactId?: string, m?: Tx): Promise<InitiativeKpiImpactRow[]> {
    return this.sql.rows<InitiativeKpiImpactRow>(
      `SELECT x.id, x.initiative_id, x.kpi_id, x.expected_impact, x.created_by_member_id, x.created_at, k.name, k.goal_id, k.project_id
       FROM initiative_kpi_impacts x JOIN kpis k ON k.org_id = x.org_id AND k.id = x.kpi_id
      WHERE x.org_id = $1 AND x.initiative_id = $2 AND ($3::uuid IS NULL OR x.id = $3)
      ORDER BY x.created_at, x.id`,
      [orgId, id, impactId ?? null],
      m,
    );
  }

  /** Stores the expected impact of initiative `id` on KPI `kpiId`; answers its id, or undefined when the KPI is linked already. */
  async insertKpiImpact(orgId: string, id: string, kpiId: string, expected: string | null, memberId: string, m?: Tx): Promise<string | undefined> {
    const row = await this.sql.row<{ id: string }>(
      `INSERT INTO initiative_kpi_impacts (org_id, initiative_id, kpi_id, expected_impact, created_by_member_id) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (org_id, initiative_id, kpi_id) DO NOTHING RETURNING id`,
      [orgId, id, kpiId, expected, memberId],
      m,
    );
    return row?.id;
  }

  /** Id of the impact link of initiative `id` on KPI `kpiId`, or undefined. */
  async kpiImpactId(orgId: string, id: string, kpiId: string, m?: Tx): Promise<string | undefined> {
    return (
      await this.sql.row<{ id: string }>(
        'SELECT id FROM initiative_kpi_impacts WHERE org_id = $1 AND initiative_id = $2 AND kpi_id = $3',
        [orgId, id, kpiId],
        m,
      )
    )?.id;
  }

  /** Deletes impact link `impactId` of initiative `id`. */
  async deleteKpiImpact(orgId: string, id: string, impactId: string, m?: Tx): Promise<void> {
    await this.sql.run('DELETE FROM initiative_kpi_impacts WHERE org_id = $1 AND initiative_id = $2 AND id = $3', [orgId, id, impactId], m);
  }

  /** Initiatives issue `issueId` is directly linked to (one with `initiativeId`), oldest link first. */
  issueInitiatives(orgId: string, issueId: string, initiativeId?: string, m?: Tx): Promise<IssueInitiativeRow[]> {
    return this.sql.rows<IssueInitiativeRow>(
      `SELECT i.id, i.title, i.name, i.status, i.goal_id, i.project_id, x.created_at AS linked_at,
              coalesce((SELECT array_agg(ip.project_id::text) FROM initiative_projects ip WHERE ip.org_id = i.org_id AND ip.initiative_id = i.id), '{}') AS linked
         FROM initiative_issues x JOIN initiatives i ON i.org_id = x.org_id AND i.id = x.initiative_id
        WHERE x.org_id = $1 AND x.issue_id = $2 AND ($3::uuid IS NULL OR x.initiative_id = $3)
        ORDER BY x.created_at, i.id`,
      [orgId, issueId, initiativeId ?? null],
      m,
    );
  }
}
