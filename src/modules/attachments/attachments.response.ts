export class AttachmentResponse {
  id: string;
  issue_id: string;
  /** Sanitized original file name */
  file_name: string;
  /** Stored content type; PNG, JPEG, GIF and WebP are signature-checked */
  content_type: string;
  size_bytes: number;
  /** SHA-256 of the content, lowercase hex */
  sha256: string;
  /** Authenticated content URL: `/api/orgs/{id}/issues/{issueId}/attachments/{attachmentId}/content` */
  url: string;
  /** Member id of the uploader (null when that member is gone) */
  uploaded_by: string | null;
  created_at: string;
}

export class AttachmentEnvelope {
  attachment: AttachmentResponse;
}

export class AttachmentList {
  attachments: AttachmentResponse[];
}

export class AttachmentUploadBody {
  /** The file (non-empty, at most 10 MiB) */
  file: string;
}

export class SuccessResponse {
  success: boolean;
}
