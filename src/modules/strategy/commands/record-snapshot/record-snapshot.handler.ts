import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../common/errors/domain-error';
import { KpisRepository } from '../../kpis.repository';
import { StrategyAccess } from '../../strategy-access';
import { snapshotInput } from '../../strategy-input';
import { toSnapshotResponse } from '../../strategy.mapper';
import type { SnapshotEnvelope } from '../../strategy.response';
import { RecordSnapshotCommand } from './record-snapshot.command';
import { TxRunner } from '../../../../database/tx-runner';

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
    private readonly tx: TxRunner,
    private readonly strategy: StrategyAccess,
    private readonly kpis: KpisRepository,
  ) {}

  async execute({ actor, kpiId, dto }: RecordSnapshotCommand): Promise<SnapshotEnvelope> {
    await this.strategy.assertWrite(actor, 'kpis', kpiId);
    const input = snapshotInput(dto as unknown as Record<string, unknown>);
    if (input.initiativeId) await this.strategy.assertInitiativeRead(actor, input.initiativeId);
    if (input.issueId) await this.strategy.assertIssueRead(actor, input.issueId);
    const id = randomUUID();
    const row = await this.tx.run(async (m) => {
      const kpi = await this.kpis.lockSourceType(actor.orgId, kpiId, m);
      if (kpi?.source_type === 'formula') {
        throw new DomainError(400, 'formula_kpi_snapshot_rejected', 'This KPI is calculated from linked issues (formula); it does not accept snapshots');
      }
      await this.kpis.insertSnapshot(
        actor.orgId,
        {
          id,
          kpiId,
          value: input.value,
          source: input.source,
          attributionNote: input.attributionNote,
          initiativeId: input.initiativeId,
          issueId: input.issueId,
          recordedByMemberId: actor.memberId,
        },
        m,
      );
      await this.kpis.applySnapshot(actor.orgId, id, m);
      return (await this.kpis.findSnapshot(actor.orgId, id, m))!;
    });
    return { snapshot: toSnapshotResponse(row) };
  }
}
