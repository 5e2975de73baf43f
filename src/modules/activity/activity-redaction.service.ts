import { Injectable } from '@nestjs/common';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { isUuid } from '../../common/http/validation';
import type { ActivityRow } from './activity.mapper';
import { ActivityRepository } from './activity.repository';

/** Metadata keys naming a strategy record on a timeline entry (initiative and target link/unlink). */
const INITIATIVE_KEYS = ['initiative_id', 'initiative_title'];
const TARGET_KEYS = ['target_id', 'target_title'];

/**
 * Timeline entries are readable by whoever can read the issue, but an entry may name an
 * initiative or initiative target the reader cannot see (a guest with access to the issue's
 * project only). Those names and ids are removed at read time (`restricted: true` says that
 * something was), judged by the same strategy rule as the initiative routes
 * (AccessPolicyService.strategySetLevel). Non-guests read every initiative, so only guests pay.
 */
@Injectable()
export class ActivityRedaction {
  constructor(
    private readonly activity: ActivityRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async apply(actor: Actor, rows: ActivityRow[]): Promise<void> {
    const iniIds = new Set<string>();
    const targetIds = new Set<string>();
    for (const r of rows) {
      const m = r.metadata ?? {};
      if (isUuid(m.initiative_id)) iniIds.add(m.initiative_id);
      if (isUuid(m.target_id)) targetIds.add(m.target_id);
    }
    if (!iniIds.size && !targetIds.size) return;
    if ((await this.access.projectAccess(actor)).baseline) return;

    const readable = new Set<string>();
    const inis = iniIds.size ? await this.activity.initiativeScopes(actor.orgId, [...iniIds]) : [];
    const iniById = new Map(inis.map((i) => [i.id, i]));
    for (const i of inis) if (await this.access.strategySetLevel(actor, i.project_id, i.linked)) readable.add(i.id);
    const targets = targetIds.size ? await this.activity.targetScopes(actor.orgId, [...targetIds]) : [];
    for (const t of targets) {
      const ini = iniById.get(t.initiative_id);
      const level = t.scope_type === 'initiative' ? (ini ? readable.has(ini.id) : false) : !!(await this.access.strategySetLevel(actor, null, t.scope));
      if (level && readable.has(t.initiative_id)) readable.add(t.id);
    }

    for (const r of rows) {
      const m = r.metadata;
      if (!m) continue;
      const strip = (keys: string[]) => {
        for (const k of keys) delete m[k];
        m.restricted = true;
      };
      // deleted records are not readable either: their names stay hidden from guests
      if (m.initiative_id !== undefined && !readable.has(String(m.initiative_id as string))) strip([...INITIATIVE_KEYS, ...TARGET_KEYS]);
      else if (m.target_id !== undefined && !readable.has(String(m.target_id as string))) strip(TARGET_KEYS);
    }
  }
}
