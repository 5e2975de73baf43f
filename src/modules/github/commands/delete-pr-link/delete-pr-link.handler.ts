import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { Errors } from '../../../../common/errors/domain-error';
import type { GithubSuccessResponse } from '../../github.response';
import { PrLinksRepository } from '../../pr-links.repository';
import { DeletePrLinkCommand } from './delete-pr-link.command';

/** Removes a pull-request link (edit on the issue's project). */
@CommandHandler(DeletePrLinkCommand)
export class DeletePrLinkHandler implements ICommandHandler<DeletePrLinkCommand, GithubSuccessResponse> {
  constructor(
    private readonly access: AccessPolicyService,
    private readonly links: PrLinksRepository,
  ) {}

  async execute({ actor, issueId, linkId }: DeletePrLinkCommand): Promise<GithubSuccessResponse> {
    const issue = await this.access.assertIssueWrite(actor, issueId);
    if (!(await this.links.delete(actor.orgId, issue.id, linkId))) throw Errors.notFound('Pull-request link not found');
    return { success: true };
  }
}
