import { Injectable } from '@nestjs/common';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { Clock } from '../../common/clock/clock';
import { type InitiativeRef, InitiativeScope } from './initiative-scope.service';
import { InitiativeTargetsRepository } from './initiative-targets.repository';
import { InitiativesRepository } from './initiatives.repository';
import { toInitiativeResponse, toIssueInitiative, toKpiImpacts } from './initiatives.mapper';
import type { InitiativeDetailResponse, IssueInitiativeResponse } from './initiatives.response';
import { toTargetResponse } from './targets.mapper';
import type { TargetResponse } from './targets.response';

/** Response reads after the caller was authorized (the filters of what the caller can see still apply). */
@Injectable()
export class InitiativeReader {
  constructor(
    private readonly initiatives: InitiativesRepository,
    private readonly targetRows: InitiativeTargetsRepository,
    private readonly scope: InitiativeScope,
    private readonly access: AccessPolicyService,
    private readonly clock: Clock,
  ) {}

  async detail(actor: Actor, id: string): Promise<InitiativeDetailResponse> {
    const vis = await this.scope.visibility(actor);
    const row = await this.initiatives.find(actor.orgId, id);
    if (!row) throw Errors.notFound('Initiative not found');
    return { ...toInitiativeResponse(row, vis), kpi_impacts: toKpiImpacts(await this.initiatives.kpiImpacts(actor.orgId, id), vis) };
  }

  /** Targets of a readable initiative whose typed scope the caller can read (one target with `targetId`). */
  async targets(actor: Actor, ini: InitiativeRef, targetId?: string): Promise<TargetResponse[]> {
    const vis = await this.scope.visibility(actor);
    const today = this.clock.now().toISOString().slice(0, 10);
    const out: TargetResponse[] = [];
    for (const r of await this.targetRows.list(actor.orgId, ini.id, targetId)) {
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

  /** Initiatives an issue is directly linked to (one with `initiativeId`), only those the caller can read. */
  async issueInitiatives(actor: Actor, issueId: string, initiativeId?: string): Promise<IssueInitiativeResponse[]> {
    const out: IssueInitiativeResponse[] = [];
    for (const r of await this.initiatives.issueInitiatives(actor.orgId, issueId, initiativeId)) {
      if (!(await this.access.strategySetLevel(actor, r.project_id, r.linked))) continue;
      out.push(toIssueInitiative(r));
    }
    return out;
  }
}
