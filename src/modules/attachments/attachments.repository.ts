import { Injectable } from '@nestjs/common';
import { type Tx, Sql } from '../../database/sql.service';
import { AttachmentEntity } from './entities/attachment.entity';

/** Every column of AttachmentEntity, named as its properties (bigint size as a string, as TypeORM hydrates it). */
const ATTACHMENT_COLUMNS = `org_id AS "orgId", id, issue_id AS "issueId", file_name AS "fileName", content_type AS "contentType",
  size_bytes AS "sizeBytes", sha256, storage_key AS "storageKey", uploaded_by_member_id AS "uploadedByMemberId", created_at AS "createdAt"`;

const toEntity = (row: AttachmentEntity): AttachmentEntity => Object.assign(new AttachmentEntity(), row);

/** Statements of issue attachments (`attachments`). Deleting a row queues its object (trigger). */
@Injectable()
export class AttachmentsRepository {
  constructor(private readonly sql: Sql) {}

  /** Inserts one attachment row. */
  async insert(a: AttachmentEntity, m?: Tx): Promise<void> {
    await this.sql.run(
      `INSERT INTO attachments (org_id, id, issue_id, file_name, content_type, size_bytes, sha256, storage_key, uploaded_by_member_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [a.orgId, a.id, a.issueId, a.fileName, a.contentType, a.sizeBytes, a.sha256, a.storageKey, a.uploadedByMemberId, a.createdAt],
      m,
    );
  }

  /** Attachment `id` of issue `issueId`, or undefined. */
  async find(orgId: string, issueId: string, id: string, m?: Tx): Promise<AttachmentEntity | undefined> {
    const row = await this.sql.row<AttachmentEntity>(
      `SELECT ${ATTACHMENT_COLUMNS} FROM attachments WHERE org_id = $1 AND id = $2 AND issue_id = $3`,
      [orgId, id, issueId],
      m,
    );
    return row ? toEntity(row) : undefined;
  }

  /** Attachments of issue `issueId`, oldest first. */
  async listOf(orgId: string, issueId: string, m?: Tx): Promise<AttachmentEntity[]> {
    const rows = await this.sql.rows<AttachmentEntity>(
      `SELECT ${ATTACHMENT_COLUMNS} FROM attachments WHERE org_id = $1 AND issue_id = $2 ORDER BY created_at ASC, id ASC`,
      [orgId, issueId],
      m,
    );
    return rows.map(toEntity);
  }

  /** Deletes attachment `id` of issue `issueId`; answers its file name, or undefined when there was none. */
  async delete(orgId: string, issueId: string, id: string, m?: Tx): Promise<{ id: string; file_name: string } | undefined> {
    return this.sql.row<{ id: string; file_name: string }>(
      'DELETE FROM attachments WHERE org_id = $1 AND id = $2 AND issue_id = $3 RETURNING id, file_name',
      [orgId, id, issueId],
      m,
    );
  }
}
