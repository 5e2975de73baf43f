import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('attachments')
export class AttachmentEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') issueId: string;
  @Column('text') fileName: string;
  @Column('text') contentType: string;
  @Column('bigint') sizeBytes: string;
  @Column('text') sha256: string;
  @Column('text') storageKey: string;
  @Column('uuid', { nullable: true }) uploadedByMemberId: string | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}

@Entity('storage_deletions')
export class StorageDeletionEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('text') storageKey: string;
  @Column('integer', { default: 0 }) attempts: number;
  @Column('timestamptz', { default: () => 'now()' }) nextAttemptAt: Date;
  @Column('text', { nullable: true }) lastError: string | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
