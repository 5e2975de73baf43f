import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../../common/errors/domain-error';
import { StrategyAccess } from '../../strategy-access';
import { snapshotInput } from '../../strategy-input';
import { SNAPSHOT_SELECT, toSnapshotResponse } from '../../strategy.mapper';
import type { SnapshotEnvelope } from '../../strategy.response';
import { RecordSnapshotCommand } from './record-snapshot.command';

/**
 * Records a measurement: 404 when the KPI is unreadable, 403 for everyone but organization owners
 * and admins (agents with that role record `source: "agent"`). Formula KPIs take no snapshots
 * (400 `formula_kpi_snapshot_rejected`); `api_poll` and `formula` sources are the service's (400
 * `snapshot_source_reserved`). Attribution targets must be readable (404). The snapshot and the
 * KPI's `current_value` / `last_recorded_at` change in one transaction, under a row lock on the KPI.
 */
@CommandHandler(RecordSnapshotCommand)
export class RecordSnapshotHandler implements ICommandHandler<RecordSnapshotCommand, SnapshotEnvelope> {
  constructor(
    private readonly db: DataSource,
    private readonly strategy: StrategyAccess,
  ) {}

  async execute({ actor, kpiId, dto }: RecordSnapshotCommand): Promise<SnapshotEnvelope> {
    await this.strategy.assertWrite(actor, 'kpis', kpiId);
    const input = snapshotInput(dto as unknown as Record<string, unknown>);
    if (input.initiativeId) await this.strategy.assertInitiativeRead(actor, input.initiativeId);
    if (input.issueId) await this.strategy.assertIssueRead(actor, input.issueId);
    const id = randomUUID();
    const row = await this.db.transaction(async (m) => {
      const kpi: Array<{ source_type: string }> = await m.query('SELECT source_type FROM kpis WHERE org_id = $1 AND id = $2 FOR UPDATE', [actor.orgId, kpiId]);
      if (kpi[0]?.source_type === 'formula') {
        throw new DomainError(400, 'formula_kpi_snapshot_rejected', 'This KPI is calculated from linked issues (formula); it does not accept snapshots');
      }
      await m.query(
        `INSERT INTO kpi_snapshots (org_id, id, kpi_id, value, source, attribution_note, attributed_to_initiative_id, attributed_to_issue_id, recorded_by_member_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, clock_timestamp())`,
        [actor.orgId, id, kpiId, input.value, input.source, input.attributionNote, input.initiativeId, input.issueId, actor.memberId],
      );
      await m.query(
        `UPDATE kpis k SET current_value = s.value, last_recorded_at = s.created_at, updated_at = now()
           FROM kpi_snapshots s WHERE s.org_id = $1 AND s.id = $2 AND k.org_id = $1 AND k.id = s.kpi_id`,
        [actor.orgId, id],
      );
      const rows: Array<Record<string, any>> = await m.query(`${SNAPSHOT_SELECT} WHERE s.org_id = $1 AND s.id = $2`, [actor.orgId, id]);
      return rows[0];
    });
    return { snapshot: toSnapshotResponse(row) };
  }
}
