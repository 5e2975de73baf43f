import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import type { IssueInitiativeResponse } from './initiatives.response';

/** Initiatives an issue is directly linked to, only those the caller can read. */
@Injectable()
export class IssueInitiativesReader {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async list(actor: Actor, issueId: string, initiativeId?: string): Promise<IssueInitiativeResponse[]> {
    const rows: Array<Record<string, any>> = await this.db.query(
      `SELECT i.id, i.title, i.name, i.status, i.goal_id, i.project_id, x.created_at AS linked_at,
              coalesce((SELECT array_agg(ip.project_id::text) FROM initiative_projects ip WHERE ip.org_id = i.org_id AND ip.initiative_id = i.id), '{}') AS linked
         FROM initiative_issues x JOIN initiatives i ON i.org_id = x.org_id AND i.id = x.initiative_id
        WHERE x.org_id = $1 AND x.issue_id = $2 AND ($3::uuid IS NULL OR x.initiative_id = $3)
        ORDER BY x.created_at, i.id`,
      [actor.orgId, issueId, initiativeId ?? null],
    );
    const out: IssueInitiativeResponse[] = [];
    for (const r of rows) {
      if (!(await this.access.strategySetLevel(actor, r.project_id, r.linked))) continue;
      out.push({ id: r.id, title: r.title, name: r.name, status: r.status, goal_id: r.goal_id ?? null, project_id: r.project_id ?? null, linked_at: new Date(r.linked_at).toISOString() });
    }
    return out;
  }
}
