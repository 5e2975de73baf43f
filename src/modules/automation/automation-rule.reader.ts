import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccessPolicyService } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { AutomationRepository } from './automation.repository';
import type { AutomationRuleEntity } from './entities/automation-rule.entity';

/**
 * Who may see which rule (decided with AccessPolicyService): non-guest members read org-wide rules
 * and the rules of projects they can read; a rule of an unreadable project is 404; guests 403.
 * Writes, history and dry runs need owner/admin (403 first, so a 403 never depends on existence).
 */
@Injectable()
export class AutomationRuleReader {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly repo: AutomationRepository,
  ) {}

  async assertCanRead(actor: Actor): Promise<void> {
    await this.access.assertOrgWideMember(actor, 'Guests cannot read automation rules');
  }

  assertCanManage(actor: Actor): void {
    this.access.assertOrgAdmin(actor, 'Only organization owners and admins can manage automation rules');
  }

  /** A rule of the caller's organization that the caller can read (404 otherwise). */
  async readable(m: EntityManager, actor: Actor, ruleId: string, lock = false): Promise<AutomationRuleEntity> {
    const rule = await this.repo.findRule(actor.orgId, ruleId, lock, m);
    if (!rule || (rule.projectId && !(await this.access.levelFor(actor, rule.projectId)))) throw Errors.notFound('Automation rule not found');
    return rule;
  }

  /** The project ids whose rules the caller can read ('all' or a list); org-wide rules are always readable. */
  readableProjects(actor: Actor): Promise<'all' | string[]> {
    return this.access.readableProjects(actor);
  }
}
