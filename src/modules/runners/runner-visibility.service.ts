import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { RunnersRepository } from './runners.repository';

/**
 * Which runner installations a human manages: owners and admins every one; other non-guest
 * members those of their personal agents and of the agents they created; guests none (403).
 */
@Injectable()
export class RunnerVisibility {
  constructor(private readonly runners: RunnersRepository) {}

  /** Agent ids, or null for every agent. */
  async manageableAgents(actor: Actor): Promise<string[] | null> {
    if (actor.isOwnerOrAdmin) return null;
    if (actor.isGuest) throw Errors.forbidden('Guests cannot manage runners');
    return this.runners.managedAgentIds(actor.orgId, actor.memberId);
  }
}
