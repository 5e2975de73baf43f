import type { AttachmentEntity } from './entities/attachment.entity';
import type { AttachmentResponse } from './attachments.response';

const iso = (d: Date | string): string => (d instanceof Date ? d : new Date(d)).toISOString();

export const toAttachmentResponse = (a: AttachmentEntity): AttachmentResponse => ({
  id: a.id,
  issue_id: a.issueId,
  file_name: a.fileName,
  content_type: a.contentType,
  size_bytes: Number(a.sizeBytes),
  sha256: a.sha256,
  url: `/api/orgs/${a.orgId}/issues/${a.issueId}/attachments/${a.id}/content`,
  uploaded_by: a.uploadedByMemberId,
  created_at: iso(a.createdAt),
});
