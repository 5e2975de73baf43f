import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { Clock } from '../../common/clock/clock';
import { type InitiativeRef, InitiativeScope } from './initiative-scope.service';
import { readInitiativeRow, readKpiImpacts, toInitiativeResponse } from './initiatives.mapper';
import type { InitiativeDetailResponse } from './initiatives.response';
import { readTargetRows, toTargetResponse } from './targets.mapper';
import type { TargetResponse } from './targets.response';

/** Response reads after the caller was authorized (the filters of what the caller can see still apply). */
@Injectable()
export class InitiativeReader {
  constructor(
    private readonly db: DataSource,
    private readonly scope: InitiativeScope,
    private readonly clock: Clock,
  ) {}

  async detail(actor: Actor, id: string): Promise<InitiativeDetailResponse> {
    const vis = await this.scope.visibility(actor);
    const row = await readInitiativeRow(this.db.manager, actor.orgId, id);
    if (!row) throw Errors.notFound('Initiative not found');
    return { ...toInitiativeResponse(row, vis), kpi_impacts: await readKpiImpacts(this.db.manager, actor.orgId, id, vis) };
  }

  /** Targets of a readable initiative whose typed scope the caller can read (one target with `targetId`). */
  async targets(actor: Actor, ini: InitiativeRef, targetId?: string): Promise<TargetResponse[]> {
    const vis = await this.scope.visibility(actor);
    const today = this.clock.now().toISOString().slice(0, 10);
    const out: TargetResponse[] = [];
    for (const r of await readTargetRows(this.db.manager, actor.orgId, ini.id, targetId)) {
      const scopeProjectIds = this.scope.scopeOf(ini, r.scope_type, r.scope_project_ids);
      if (await this.scope.targetReadable(actor, ini, { scopeType: r.scope_type, scopeProjectIds })) out.push(toTargetResponse(r, ini, this.scope, vis, today));
    }
    return out;
  }

  async target(actor: Actor, ini: InitiativeRef, targetId: string): Promise<TargetResponse> {
    const [t] = await this.targets(actor, ini, targetId);
    if (!t) throw Errors.notFound('Target not found');
    return t;
  }
}
