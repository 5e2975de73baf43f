import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { NotificationActionKind, NotificationChannel, NotificationEventType, NotificationSeverity } from '../notification-kinds';

@Entity('notifications')
export class NotificationEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') recipientMemberId: string;
  @Column('text') eventType: NotificationEventType;
  @Column('text') severity: NotificationSeverity;
  @Column('text') actionKind: NotificationActionKind;
  /** The comment or issue-change event that caused it (unique per recipient). */
  @Column('uuid', { nullable: true }) causeId: string | null;
  @Column('uuid', { nullable: true }) issueId: string | null;
  @Column('uuid', { nullable: true }) projectId: string | null;
  @Column('uuid', { nullable: true }) commentId: string | null;
  @Column('uuid', { nullable: true }) replyToCommentId: string | null;
  @Column('uuid', { nullable: true }) actorMemberId: string | null;
  @Column('text') actorType: 'human' | 'agent' | 'automation';
  /** Issue title when the notification was created. */
  @Column('text') title: string;
  @Column('jsonb', { default: {} }) metadata: Record<string, unknown>;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { nullable: true }) acknowledgedAt: Date | null;
}

@Entity('notification_preferences')
export class NotificationPreferenceEntity {
  @PrimaryColumn('uuid') orgId: string;
  @PrimaryColumn('uuid') memberId: string;
  @PrimaryColumn('text') channel: NotificationChannel;
  @PrimaryColumn('text') eventType: NotificationEventType;
  @Column('boolean') enabled: boolean;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
