import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import { LinkStatements } from './initiatives.repository';
import type { ScopeType, TARGET_DIRECTIONS, TARGET_MODES, TARGET_STATUSES, TargetInput } from './target-input';

/** A target as responses show it: its fields, scope projects and linked issues and milestones (with their projects). */
export interface TargetRow {
  id: string;
  initiative_id: string;
  title: string;
  description: string | null;
  mode: (typeof TARGET_MODES)[number];
  status: (typeof TARGET_STATUSES)[number];
  unit: string;
  unit_label: string | null;
  baseline_value: number | null;
  current_value: number | null;
  target_value: number | null;
  target_direction: (typeof TARGET_DIRECTIONS)[number];
  target_date: string | null;
  due_soon_days: number;
  scope_type: ScopeType;
  created_by_member_id: string | null;
  created_at: Date;
  updated_at: Date;
  scope_project_ids: string[];
  issues: Array<{ id: string; project_id: string | null }>;
  milestones: Array<{ id: string; project_id: string }>;
}

/** What the access rules need of a target: its title and typed scope. */
export interface TargetRefRow {
  id: string;
  title: string;
  scope_type: ScopeType;
  scope: string[];
}

/** The target fields a create or update writes (the scope is written apart). */
export type TargetFields = Omit<TargetInput, 'scope'>;

/** Column of each target field. */
const TARGET_COLUMNS: Record<keyof TargetFields, string> = {
  title: 'title',
  description: 'description',
  mode: 'mode',
  status: 'status',
  unit: 'unit',
  unitLabel: 'unit_label',
  baselineValue: 'baseline_value',
  currentValue: 'current_value',
  targetValue: 'target_value',
  targetDirection: 'target_direction',
  targetDate: 'target_date',
  dueSoonDays: 'due_soon_days',
};

const TARGET_SELECT = `SELECT t.id, t.initiative_id, t.title, t.description, t.mode, t.status, t.unit, t.unit_label,
    t.baseline_value, t.current_value, t.target_value, t.target_direction, to_char(t.target_date, 'YYYY-MM-DD') AS target_date,
    t.due_soon_days, t.scope_type, t.created_by_member_id, t.created_at, t.updated_at,
    coalesce((SELECT array_agg(tp.project_id::text ORDER BY tp.project_id) FROM initiative_target_projects tp
               WHERE tp.org_id = t.org_id AND tp.target_id = t.id), '{}') AS scope_project_ids,
    coalesce((SELECT json_agg(json_build_object('id', x.issue_id, 'project_id', i.project_id) ORDER BY x.created_at, x.issue_id)
                FROM initiative_target_issues x JOIN issues i ON i.org_id = x.org_id AND i.id = x.issue_id
               WHERE x.org_id = t.org_id AND x.target_id = t.id), '[]') AS issues,
    coalesce((SELECT json_agg(json_build_object('id', x.milestone_id, 'project_id', ms.project_id) ORDER BY x.created_at, x.milestone_id)
                FROM initiative_target_milestones x JOIN milestones ms ON ms.org_id = x.org_id AND ms.id = x.milestone_id
               WHERE x.org_id = t.org_id AND x.target_id = t.id), '[]') AS milestones
  FROM initiative_targets t`;

/**
 * Initiative targets (table `initiative_targets`), their scope projects and their issue and
 * milestone links (`initiative_target_projects`, `initiative_target_issues`, `initiative_target_milestones`).
 */
@Injectable()
export class InitiativeTargetsRepository {
  /** Issue and milestone links of targets. */
  readonly links: LinkStatements;

  constructor(private readonly sql: Sql) {
    this.links = new LinkStatements(
      sql,
      { table: 'initiative_target_issues', ownerColumn: 'target_id' },
      { table: 'initiative_target_milestones', ownerColumn: 'target_id' },
    );
  }

  /** Title and typed scope of target `id` of initiative `initiativeId`, or undefined. */
  findRef(orgId: string, initiativeId: string, id: string, m?: Tx): Promise<TargetRefRow | undefined> {
    return this.sql.row<TargetRefRow>(
      `SELECT t.id, t.title, t.scope_type,
              coalesce((SELECT array_agg(tp.project_id::text ORDER BY tp.project_id) FROM initiative_target_projects tp
                         WHERE tp.org_id = t.org_id AND tp.target_id = t.id), '{}') AS scope
         FROM initiative_targets t WHERE t.org_id = $1 AND t.initiative_id = $2 AND t.id = $3`,
      [orgId, initiativeId, id],
      m,
    );
  }

  /** Targets of initiative `initiativeId` (one with `id`), oldest first. */
  list(orgId: string, initiativeId: string, id?: string, m?: Tx): Promise<TargetRow[]> {
    return this.sql.rows<TargetRow>(
      `${TARGET_SELECT} WHERE t.org_id = $1 AND t.initiative_id = $2 AND ($3::uuid IS NULL OR t.id = $3) ORDER BY t.created_at, t.id`,
      [orgId, initiativeId, id ?? null],
      m,
    );
  }

  /** Mode and counts of target `id` (for the gate rule), or undefined. */
  gate(orgId: string, id: string, m?: Tx): Promise<{ mode: string; current_value: number | null; target_value: number | null } | undefined> {
    return this.sql.row<{ mode: string; current_value: number | null; target_value: number | null }>(
      'SELECT mode, current_value, target_value FROM initiative_targets WHERE org_id = $1 AND id = $2',
      [orgId, id],
      m,
    );
  }

  /** Stores a new target of initiative `initiativeId` with the given fields (the others take their defaults). */
  async insert(orgId: string, id: string, initiativeId: string, scopeType: ScopeType, memberId: string, fields: TargetFields, m?: Tx): Promise<void> {
    const cols = ['org_id', 'id', 'initiative_id', 'scope_type', 'created_by_member_id'];
    const args: unknown[] = [orgId, id, initiativeId, scopeType, memberId];
    for (const [k, v] of Object.entries(fields)) {
      cols.push(TARGET_COLUMNS[k as keyof TargetFields]);
      args.push(v);
    }
    await this.sql.planned(`INSERT INTO initiative_targets (${cols.join(', ')}) VALUES (${args.map((_, i) => `$${i + 1}`).join(', ')})`, args, m);
  }

  /** Writes the given fields (and the scope type, when given) of target `id` and its updated_at; nothing when none is given. */
  async update(orgId: string, id: string, fields: TargetFields, scopeType: ScopeType | undefined, m?: Tx): Promise<void> {
    const sets: string[] = [];
    const args: unknown[] = [orgId, id];
    for (const [k, v] of Object.entries(fields)) {
      args.push(v);
      sets.push(`${TARGET_COLUMNS[k as keyof TargetFields]} = $${args.length}`);
    }
    if (scopeType !== undefined) {
      args.push(scopeType);
      sets.push(`scope_type = $${args.length}`);
    }
    if (sets.length) await this.sql.planned(`UPDATE initiative_targets SET ${sets.join(', ')}, updated_at = now() WHERE org_id = $1 AND id = $2`, args, m);
  }

  /** Replaces the stored scope projects of target `id`. */
  async replaceScope(orgId: string, id: string, projectIds: string[], m?: Tx): Promise<void> {
    await this.sql.run('DELETE FROM initiative_target_projects WHERE org_id = $1 AND target_id = $2', [orgId, id], m);
    if (projectIds.length) {
      await this.sql.run(
        'INSERT INTO initiative_target_projects (org_id, target_id, project_id) SELECT $1, $2, unnest($3::uuid[])',
        [orgId, id, projectIds],
        m,
      );
    }
  }

  /** Deletes target `id` (its links go with it). */
  async delete(orgId: string, id: string, m?: Tx): Promise<void> {
    await this.sql.run('DELETE FROM initiative_targets WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }
}
