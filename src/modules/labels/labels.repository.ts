import { Injectable } from '@nestjs/common';
import { Sql, type Tx } from '../../database/sql.service';

/** A stored label. */
export interface LabelRow {
  id: string;
  name: string;
  color: string | null;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, color, description, created_at, updated_at';

/** The organization's labels (table `labels`). */
@Injectable()
export class LabelsRepository {
  constructor(private readonly sql: Sql) {}

  /** The label `id` of the organization, or undefined. */
  find(orgId: string, id: string, m?: Tx): Promise<LabelRow | undefined> {
    return this.sql.row<LabelRow>(`SELECT ${COLUMNS} FROM labels WHERE org_id = $1 AND id = $2`, [orgId, id], m);
  }

  /** The id and name of label `id`, or undefined. */
  findRef(orgId: string, id: string, m?: Tx): Promise<{ id: string; name: string } | undefined> {
    return this.sql.row<{ id: string; name: string }>('SELECT id, name FROM labels WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }

  /** The ids among `ids` that are labels of the organization. */
  async idsAmong(orgId: string, ids: string[], m?: Tx): Promise<string[]> {
    return (await this.sql.rows<{ id: string }>('SELECT id FROM labels WHERE org_id = $1 AND id = ANY($2::uuid[])', [orgId, ids], m)).map((r) => r.id);
  }

  /** One page of the organization's labels, by name (case-insensitive), then id. */
  page(orgId: string, limit: number, offset: number, m?: Tx): Promise<LabelRow[]> {
    return this.sql.rows<LabelRow>(
      `SELECT ${COLUMNS} FROM labels WHERE org_id = $1 ORDER BY lower(name) ASC, id ASC LIMIT $2 OFFSET $3`,
      [orgId, limit, offset],
      m,
    );
  }

  /** The number of labels of the organization. */
  async count(orgId: string, m?: Tx): Promise<number> {
    return (await this.sql.row<{ n: number }>('SELECT count(*)::int AS n FROM labels WHERE org_id = $1', [orgId], m))!.n;
  }

  /** Whether another label of the organization (not `exceptId`) has this name, case-insensitively. */
  async nameTaken(orgId: string, name: string, exceptId?: string, m?: Tx): Promise<boolean> {
    const rows =
      exceptId === undefined
        ? await this.sql.rows('SELECT 1 FROM labels WHERE org_id = $1 AND lower(name) = lower($2)', [orgId, name], m)
        : await this.sql.rows('SELECT 1 FROM labels WHERE org_id = $1 AND lower(name) = lower($2) AND id <> $3', [orgId, name, exceptId], m);
    return rows.length > 0;
  }

  /** Stores a new label of the organization. */
  async insert(orgId: string, l: LabelRow, m?: Tx): Promise<void> {
    await this.sql.run(
      'INSERT INTO labels (org_id, id, name, color, description, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [orgId, l.id, l.name, l.color, l.description, l.created_at, l.updated_at],
      m,
    );
  }

  /** Writes name, color, description and updated_at of label `l.id`; answers the rows changed (0 = gone). */
  update(orgId: string, l: LabelRow, m?: Tx): Promise<number> {
    return this.sql.run(
      'UPDATE labels SET name = $3, color = $4, description = $5, updated_at = $6 WHERE org_id = $1 AND id = $2',
      [orgId, l.id, l.name, l.color, l.description, l.updated_at],
      m,
    );
  }

  /** Deletes label `id` (issue links cascade); answers the rows deleted. */
  delete(orgId: string, id: string, m?: Tx): Promise<number> {
    return this.sql.run('DELETE FROM labels WHERE org_id = $1 AND id = $2', [orgId, id], m);
  }
}
