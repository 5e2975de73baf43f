import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessPolicyService } from '../../../../common/access/access-policy.service';
import { toAttachmentResponse } from '../../attachments.mapper';
import type { AttachmentList } from '../../attachments.response';
import { AttachmentEntity } from '../../entities/attachment.entity';
import { ListAttachmentsQuery } from './list-attachments.query';

/** Attachments of a readable issue, oldest first. */
@QueryHandler(ListAttachmentsQuery)
export class ListAttachmentsHandler implements IQueryHandler<ListAttachmentsQuery, AttachmentList> {
  constructor(
    private readonly db: DataSource,
    private readonly access: AccessPolicyService,
  ) {}

  async execute({ actor, issueId }: ListAttachmentsQuery): Promise<AttachmentList> {
    const issue = await this.access.assertIssueRead(actor, issueId);
    const rows = await this.db.getRepository(AttachmentEntity).find({
      where: { orgId: actor.orgId, issueId: issue.id },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return { attachments: rows.map(toAttachmentResponse) };
  }
}
