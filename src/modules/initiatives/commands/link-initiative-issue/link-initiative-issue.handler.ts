import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { reference } from '../../fields';
import { InitiativeLinks } from '../../initiative-links.service';
import { InitiativeScope } from '../../initiative-scope.service';
import { toInitiativeIssueLink, toIssueLinks } from '../../initiatives.mapper';
import { InitiativesRepository } from '../../initiatives.repository';
import type { InitiativeIssueEnvelope } from '../../initiatives.response';
import { LinkInitiativeIssueCommand } from './link-initiative-issue.command';

/** See InitiativeLinks and InitiativeScope.issueForLink. 201 new link, 200 already linked. */
@CommandHandler(LinkInitiativeIssueCommand)
export class LinkInitiativeIssueHandler implements ICommandHandler<LinkInitiativeIssueCommand, { status: number; body: InitiativeIssueEnvelope }> {
  constructor(
    private readonly initiatives: InitiativesRepository,
    private readonly scope: InitiativeScope,
    private readonly links: InitiativeLinks,
  ) {}

  async execute({ actor, initiativeId, dto }: LinkInitiativeIssueCommand): Promise<{ status: number; body: InitiativeIssueEnvelope }> {
    const ref = reference(dto, 'issue_id');
    const r = await this.links.linkIssue(actor, initiativeId, undefined, (ini, m) => this.scope.issueForLink(actor, ini, ref, m));
    const [link] = toIssueLinks(await this.initiatives.links.issueLinks(actor.orgId, r.o.ini.id, r.issue.id), await this.scope.visibility(actor));
    return { status: r.created ? 201 : 200, body: { issue: toInitiativeIssueLink(r.o.ini.id, link, true) } };
  }
}
