import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { reference } from '../../fields';
import { InitiativeLinks } from '../../initiative-links.service';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeTargetsRepository } from '../../initiative-targets.repository';
import { toIssueLinks } from '../../initiatives.mapper';
import type { TargetIssueEnvelope } from '../../targets.response';
import { LinkTargetIssueCommand } from './link-target-issue.command';

/**
 * The target is authorized first (edit/admin on every target and initiative project), then the
 * issue reference is resolved (400 invalid, 404 concealed or out of scope, 409 ambiguous).
 * 201 new link, 200 already linked.
 */
@CommandHandler(LinkTargetIssueCommand)
export class LinkTargetIssueHandler implements ICommandHandler<LinkTargetIssueCommand, { status: number; body: TargetIssueEnvelope }> {
  constructor(
    private readonly targets: InitiativeTargetsRepository,
    private readonly scope: InitiativeScope,
    private readonly links: InitiativeLinks,
  ) {}

  async execute({ actor, initiativeId, targetId, dto }: LinkTargetIssueCommand): Promise<{ status: number; body: TargetIssueEnvelope }> {
    const ref = reference(dto, 'issue_id');
    const r = await this.links.linkIssue(actor, initiativeId, targetId, (ini, m) => this.scope.issueForLink(actor, ini, ref, m));
    const [link] = toIssueLinks(await this.targets.links.issueLinks(actor.orgId, targetId, r.issue.id), await this.scope.visibility(actor));
    return { status: r.created ? 201 : 200, body: { issue: { target_id: targetId, initiative_id: r.o.ini.id, ...link } } };
  }
}
