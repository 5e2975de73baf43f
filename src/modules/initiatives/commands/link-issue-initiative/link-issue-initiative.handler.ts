import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { uuidRef } from '../../fields';
import { InitiativeLinks } from '../../initiative-links.service';
import { InitiativeScope } from '../../initiative-scope.service';
import { InitiativeReader } from '../../initiative.reader';
import type { IssueInitiativeEnvelope } from '../../initiatives.response';
import { LinkIssueInitiativeCommand } from './link-issue-initiative.command';

/**
 * Issue side of the initiative issue link: the issue must be readable (404), then the same rules
 * as the initiative side. 201 new link, 200 already linked.
 */
@CommandHandler(LinkIssueInitiativeCommand)
export class LinkIssueInitiativeHandler implements ICommandHandler<LinkIssueInitiativeCommand, { status: number; body: IssueInitiativeEnvelope }> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly scope: InitiativeScope,
    private readonly links: InitiativeLinks,
    private readonly reader: InitiativeReader,
  ) {}

  async execute({ actor, issueId, dto }: LinkIssueInitiativeCommand): Promise<{ status: number; body: IssueInitiativeEnvelope }> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    const initiativeId = uuidRef(dto, 'initiative_id');
    const r = await this.links.linkIssue(actor, initiativeId, undefined, (ini) => this.scope.assertIssueInScope(ini, issue));
    const [row] = await this.reader.issueInitiatives(actor, issue.id, r.o.ini.id);
    return { status: r.created ? 201 : 200, body: { initiative: row } };
  }
}
