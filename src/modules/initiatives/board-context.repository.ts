import { Injectable } from '@nestjs/common';
import { Sql } from '../../database/sql.service';

export interface BoardMilestoneRow {
  id: string;
  name: string;
  status: string;
  issue_count: number;
  completed_count: number;
}

/** An initiative touching the board, with its work in this project and what decides who reads it. */
export interface BoardInitiativeRow {
  id: string;
  title: string;
  status: string;
  project_id: string | null;
  linked: string[];
  issue_count: number;
  completed_count: number;
  /** The projects of its KPI impacts' KPIs (null: an organization-level KPI), one per impact */
  kpi_projects: Array<string | null>;
  milestone_ids: string[];
}

/**
 * The strategy focus of one project's board (GET /projects/{projectId}/board-context), one
 * statement per part. An initiative touches the board when it is bound or linked to the project or
 * links a milestone or an issue of it; its counts are over its non-archived issues in this project
 * (directly linked, or in a linked milestone).
 */
@Injectable()
export class BoardContextRepository {
  constructor(private readonly sql: Sql) {}

  milestones(orgId: string, projectId: string): Promise<BoardMilestoneRow[]> {
    return this.sql.rows<BoardMilestoneRow>(
      `SELECT ms.id, ms.name, ms.status,
              count(i.id)::int AS issue_count, count(i.id) FILTER (WHERE i.status = 'done')::int AS completed_count
         FROM milestones ms
         LEFT JOIN issues i ON i.org_id = ms.org_id AND i.milestone_id = ms.id AND i.archived_at IS NULL
        WHERE ms.org_id = $1 AND ms.project_id = $2
        GROUP BY ms.org_id, ms.id ORDER BY ms.target_date NULLS LAST, lower(ms.name), ms.id`,
      [orgId, projectId],
    );
  }

  initiatives(orgId: string, projectId: string): Promise<BoardInitiativeRow[]> {
    return this.sql.rows<BoardInitiativeRow>(
      `WITH board_issues AS (
         SELECT i.id, i.status, i.milestone_id FROM issues i WHERE i.org_id = $1 AND i.project_id = $2 AND i.archived_at IS NULL
       ),
       links AS (
         SELECT ii.initiative_id, bi.id AS issue_id, bi.status FROM initiative_issues ii JOIN board_issues bi ON bi.id = ii.issue_id WHERE ii.org_id = $1
         UNION
         SELECT im.initiative_id, bi.id, bi.status FROM initiative_milestones im JOIN board_issues bi ON bi.milestone_id = im.milestone_id WHERE im.org_id = $1
       ),
       touching AS (
         SELECT id FROM initiatives WHERE org_id = $1 AND project_id = $2
         UNION SELECT initiative_id FROM initiative_projects WHERE org_id = $1 AND project_id = $2
         UNION SELECT initiative_id FROM links
         UNION SELECT im.initiative_id FROM initiative_milestones im JOIN milestones ms ON ms.org_id = im.org_id AND ms.id = im.milestone_id
                WHERE im.org_id = $1 AND ms.project_id = $2
       )
       SELECT n.id, n.title, n.status, n.project_id,
              coalesce((SELECT array_agg(ip.project_id::text) FROM initiative_projects ip WHERE ip.org_id = n.org_id AND ip.initiative_id = n.id), '{}') AS linked,
              (SELECT count(*)::int FROM links l WHERE l.initiative_id = n.id) AS issue_count,
              (SELECT count(*)::int FROM links l WHERE l.initiative_id = n.id AND l.status = 'done') AS completed_count,
              coalesce((SELECT json_agg(k.project_id) FROM initiative_kpi_impacts x JOIN kpis k ON k.org_id = x.org_id AND k.id = x.kpi_id
                         WHERE x.org_id = n.org_id AND x.initiative_id = n.id), '[]'::json) AS kpi_projects,
              coalesce((SELECT array_agg(im.milestone_id::text ORDER BY im.milestone_id) FROM initiative_milestones im
                          JOIN milestones ms ON ms.org_id = im.org_id AND ms.id = im.milestone_id
                         WHERE im.org_id = n.org_id AND im.initiative_id = n.id AND ms.project_id = $2), '{}') AS milestone_ids
         FROM initiatives n JOIN touching t ON t.id = n.id
        WHERE n.org_id = $1
        ORDER BY lower(n.title), n.id`,
      [orgId, projectId],
    );
  }

  /** The board's issues with initiatives, direct or through their milestone. */
  issueLinks(orgId: string, projectId: string): Promise<Array<{ issue_id: string; initiative_ids: string[] }>> {
    return this.sql.rows(
      `SELECT l.issue_id, array_agg(DISTINCT l.initiative_id::text) AS initiative_ids FROM (
         SELECT ii.issue_id, ii.initiative_id FROM initiative_issues ii JOIN issues i ON i.org_id = ii.org_id AND i.id = ii.issue_id
          WHERE ii.org_id = $1 AND i.project_id = $2
         UNION ALL
         SELECT i.id, im.initiative_id FROM initiative_milestones im JOIN issues i ON i.org_id = im.org_id AND i.milestone_id = im.milestone_id
          WHERE im.org_id = $1 AND i.project_id = $2
       ) l GROUP BY l.issue_id ORDER BY l.issue_id`,
      [orgId, projectId],
    );
  }
}
