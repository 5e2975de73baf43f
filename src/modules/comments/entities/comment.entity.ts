import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('comments')
export class CommentEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') issueId: string;
  @Column('text') authorType: 'member' | 'automation';
  @Column('uuid', { nullable: true }) authorMemberId: string | null;
  /** Sanitized HTML. */
  @Column('text') body: string;
  @Column('uuid', { nullable: true }) replyToCommentId: string | null;
  @Column('jsonb', { nullable: true }) sourceMetadata: Record<string, string> | null;
  @Column('timestamptz', { nullable: true }) editedAt: Date | null;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}

@Entity('comment_mentions')
export class CommentMentionEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') commentId: string;
  @PrimaryColumn('uuid') memberId: string;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
