import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '../../../../common/errors/domain-error';
import { listResponse, parsePage } from '../../../../common/http/list';
import { isUuid } from '../../../../common/http/validation';
import { ExecutionAccess } from '../../execution-access.service';
import { EXECUTION_STATES, type ExecutionState } from '../../execution-rules';
import { toExecution } from '../../executions.mapper';
import { ExecutionsRepository } from '../../executions.repository';
import { ListExecutionsQuery } from './list-executions.query';

const one = (q: Record<string, unknown>, ...names: string[]): string | undefined => {
  for (const n of names) {
    const v = q[n];
    if (v === undefined) continue;
    if (typeof v !== 'string') throw Errors.validation(`${n} must be given once`);
    return v;
  }
  return undefined;
};

/** Executions on issues the caller can read now; filters `issue_id`, `state`, `agent_member_id`; newest first. */
@QueryHandler(ListExecutionsQuery)
export class ListExecutionsHandler implements IQueryHandler<ListExecutionsQuery> {
  constructor(
    private readonly guard: ExecutionAccess,
    private readonly executions: ExecutionsRepository,
  ) {}

  async execute({ actor, query }: ListExecutionsQuery): Promise<Record<string, unknown>> {
    const page = parsePage(query);
    const issueId = one(query, 'issue_id', 'issueId');
    const state = one(query, 'state');
    const agentMemberId = one(query, 'agent_member_id', 'agentMemberId');
    if (issueId !== undefined && !isUuid(issueId)) throw Errors.validation('issue_id must be a UUID');
    if (agentMemberId !== undefined && !isUuid(agentMemberId)) throw Errors.validation('agent_member_id must be a UUID');
    if (state !== undefined && !(EXECUTION_STATES as readonly string[]).includes(state))
      throw Errors.validation(`state must be one of ${EXECUTION_STATES.join(', ')}`);
    const vis = await this.guard.visibility(actor);
    const { rows, total } = await this.executions.list(
      actor.orgId,
      { issueId: issueId?.toLowerCase(), state: state as ExecutionState | undefined, agentMemberId: agentMemberId?.toLowerCase(), ...vis },
      page.limit,
      page.offset,
    );
    return listResponse(
      'executions',
      rows.map((r) => toExecution(r)),
      total,
      page,
    );
  }
}
