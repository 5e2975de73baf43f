import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { toAttachmentResponse } from '../../attachments.mapper';
import { AttachmentsRepository } from '../../attachments.repository';
import type { AttachmentList } from '../../attachments.response';
import { ListAttachmentsQuery } from './list-attachments.query';

/** Attachments of a readable issue, oldest first. */
@QueryHandler(ListAttachmentsQuery)
export class ListAttachmentsHandler implements IQueryHandler<ListAttachmentsQuery, AttachmentList> {
  constructor(
    private readonly attachments: AttachmentsRepository,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, issueId }: ListAttachmentsQuery): Promise<AttachmentList> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    const rows = await this.attachments.listOf(actor.orgId, issue.id);
    return { attachments: rows.map(toAttachmentResponse) };
  }
}
