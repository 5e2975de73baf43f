import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';
import type { PlanName } from '../../config/config';
import type { OrgRole } from '../../common/auth/roles';
import type { OrganizationEntity } from './entities/organization.entity';

/** An organization with the caller's role in it (the organization list). */
export interface OrganizationListRow {
  id: string;
  name: string;
  issue_prefix: string;
  plan: PlanName;
  created_at: Date;
  updated_at: Date;
  role: OrgRole;
  total: number;
}

/** Whose organizations to list: a user's (every live membership) or an agent's (its own organization). */
export type OrganizationsOf = { kind: 'human'; userId: string } | { kind: 'agent'; memberId: string; orgId: string };

/** The columns of an organization, as `OrganizationEntity`. */
const ENTITY_COLUMNS = `id, name, issue_prefix AS "issuePrefix", plan, issue_seq AS "issueSeq", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Organizations (tenants) and their plan. */
@Injectable()
export class OrganizationsRepository {
  constructor(private readonly sql: Sql) {}

  /** Organization `id`, or undefined. */
  findById(id: string): Promise<OrganizationEntity | undefined> {
    return this.sql.row<OrganizationEntity>(`SELECT ${ENTITY_COLUMNS} FROM organizations WHERE id = $1`, [id]);
  }

  /** Stores a new organization. */
  async insert(org: OrganizationEntity, m?: Tx): Promise<void> {
    await this.sql.run(
      'INSERT INTO organizations (id, name, issue_prefix, plan, issue_seq, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [org.id, org.name, org.issuePrefix, org.plan, org.issueSeq, org.createdAt, org.updatedAt],
      m,
    );
  }

  /** Sets the name and default issue prefix of organization `id`. */
  async update(id: string, changes: { name: string; issuePrefix: string; updatedAt: Date }): Promise<void> {
    await this.sql.run('UPDATE organizations SET name = $2, issue_prefix = $3, updated_at = $4 WHERE id = $1', [
      id,
      changes.name,
      changes.issuePrefix,
      changes.updatedAt,
    ]);
  }

  /**
   * Deletes organization `id` and every tenant row with it (foreign keys cascade), and its entries
   * of the reference table `api_key_lookup` (no foreign key: a reference table may not point at a
   * distributed one under Citus, docs/CITUS.md).
   */
  async delete(id: string, m: Tx): Promise<void> {
    await this.sql.run('DELETE FROM api_key_lookup WHERE org_id = $1', [id], m);
    await this.sql.run('DELETE FROM organizations WHERE id = $1', [id], m);
  }

  /** One page of the caller's organizations (membership order), each row with the total. */
  list(of: OrganizationsOf, page: { limit: number; offset: number }): Promise<OrganizationListRow[]> {
    const where = of.kind === 'human' ? 'm.user_id = $1' : 'm.id = $1 AND m.org_id = $4';
    const params: unknown[] = of.kind === 'human' ? [of.userId, page.limit, page.offset] : [of.memberId, page.limit, page.offset, of.orgId];
    return this.sql.rows<OrganizationListRow>(
      `SELECT o.id, o.name, o.issue_prefix, o.plan, o.created_at, o.updated_at, m.role, count(*) OVER()::int AS total
         FROM members m JOIN organizations o ON o.id = m.org_id
        WHERE ${where} AND m.removed_at IS NULL
        ORDER BY m.created_at, o.id LIMIT $2 OFFSET $3`,
      params,
    );
  }

  /** How many organizations the caller belongs to (live memberships). */
  async count(of: OrganizationsOf): Promise<number> {
    const [where, params] = of.kind === 'human' ? ['m.user_id = $1', [of.userId]] : ['m.id = $1 AND m.org_id = $2', [of.memberId, of.orgId]];
    return (await this.sql.row<{ n: number }>(`SELECT count(*)::int AS n FROM members m WHERE ${where} AND m.removed_at IS NULL`, params))!.n;
  }

  /** The default issue prefix of organization `id`, or undefined. */
  async issuePrefix(id: string, m?: Tx): Promise<string | undefined> {
    return (await this.sql.row<{ issue_prefix: string }>('SELECT issue_prefix FROM organizations WHERE id = $1', [id], m))?.issue_prefix;
  }
}
