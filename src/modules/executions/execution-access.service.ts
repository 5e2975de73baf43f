import { Injectable } from '@nestjs/common';
import type { AccessLevel } from '../../common/access/access-level';
import { AccessPolicyService, atLeast } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { DomainError, Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';
import type { Tx } from '../../database/sql.service';
import { type AttentionRow, AttentionRepository } from './attention.repository';
import { type ExecutionRow, ExecutionsRepository } from './executions.repository';

/**
 * Access to executions and attention items follows the issue's CURRENT project (the access
 * policy's issue level): unreadable (or unknown, or another organization's) = 404; readable
 * without `edit` = 403 for writes. Projectless issues: non-guests only. The creation-project
 * metadata grants nothing.
 */
/** What a caller reads of executions: readable project ids (or 'all') and whether projectless issues are readable. */
export interface ExecutionVisibility {
  projects: 'all' | string[];
  projectless: boolean;
}

@Injectable()
export class ExecutionAccess {
  constructor(
    private readonly executions: ExecutionsRepository,
    private readonly attention: AttentionRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async read(actor: Actor, id: string, m?: Tx): Promise<{ row: ExecutionRow; level: AccessLevel }> {
    const row = isUuid(id) ? await this.executions.find(actor.orgId, id, m) : null;
    const level = row ? await this.access.issueLevel(actor, row.current_project_id) : null;
    if (!row || !level) throw Errors.notFound('Execution not found');
    return { row, level };
  }

  async write(actor: Actor, id: string, m?: Tx): Promise<ExecutionRow> {
    const { row, level } = await this.read(actor, id, m);
    if (!atLeast(level, 'edit')) throw Errors.forbidden("This needs edit access to the issue's project");
    return row;
  }

  async readItem(actor: Actor, id: string, m?: Tx): Promise<{ item: AttentionRow; level: AccessLevel }> {
    const item = isUuid(id) ? await this.attention.find(actor.orgId, id, m) : null;
    const level = item ? await this.access.issueLevel(actor, item.project_id) : null;
    if (!item || !level) throw Errors.notFound('Attention item not found');
    return { item, level };
  }

  /** The requester's own item (create, cancel, acknowledge): others get 403 after the read check. */
  async requesterItem(actor: Actor, id: string): Promise<AttentionRow> {
    const { item } = await this.readItem(actor, id);
    if (item.requester_member_id !== actor.memberId) throw new DomainError(403, 'ATTENTION_REQUESTER_REQUIRED', 'Only the requesting agent can do this');
    return item;
  }

  /** Visibility for lists: readable project ids (or 'all') and whether projectless issues are readable. */
  async visibility(actor: Actor): Promise<ExecutionVisibility> {
    const v = await this.access.strategyVisibility(actor);
    return { projects: v.projects, projectless: v.orgLevel };
  }
}
