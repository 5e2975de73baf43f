import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { listResponse, parsePage } from '../../../../common/http/list';
import { toSyncResponse } from '../../kpi-syncs.mapper';
import { KpiSyncStore, type SyncRow } from '../../kpi-syncs.store';
import { ListOrgSyncsQuery } from './list-org-syncs.query';

/**
 * The organization's review rows (settings page). Human owners/admins: configuration and secret
 * metadata; other human non-guests: redacted status rows; guests and machine actors: 403.
 */
@QueryHandler(ListOrgSyncsQuery)
export class ListOrgSyncsHandler implements IQueryHandler<ListOrgSyncsQuery, Record<string, unknown>> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
    private readonly store: KpiSyncStore,
  ) {}

  async execute({ actor, query }: ListOrgSyncsQuery): Promise<Record<string, unknown>> {
    const level = await this.access.kpiSyncReadLevel(actor, true);
    const page = parsePage(query);
    const rows: Array<SyncRow & { kpi_name: string; total: number }> = await this.db.query(
      `SELECT s.*, k.name AS kpi_name, count(*) OVER ()::int AS total FROM kpi_http_syncs s JOIN kpis k ON k.org_id = s.org_id AND k.id = s.kpi_id
        WHERE s.org_id = $1 ORDER BY s.created_at, s.id LIMIT $2 OFFSET $3`,
      [actor.orgId, page.limit, page.offset],
    );
    const total = rows[0]?.total ?? (page.offset ? (await this.db.query('SELECT count(*)::int AS n FROM kpi_http_syncs WHERE org_id = $1', [actor.orgId]))[0].n : 0);
    const secrets = level === 'full' ? await this.store.secretMeta(this.db.manager, actor.orgId, rows) : null;
    const items = rows.map((r) => toSyncResponse(r, level, { kpi: { id: r.kpi_id, name: r.kpi_name }, ...(secrets ? { secrets: secrets.get(r.id) } : {}) }));
    return listResponse('syncs', items, total, page);
  }
}
