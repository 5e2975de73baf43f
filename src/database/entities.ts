import { SessionEntity } from '../modules/accounts/entities/session.entity';
import { UserEntity } from '../modules/accounts/entities/user.entity';
import { ApiKeyEntity } from '../modules/agents/entities/api-key.entity';
import { ActivityEventEntity } from '../modules/activity/entities/activity-event.entity';
import { AttachmentEntity, StorageDeletionEntity } from '../modules/attachments/entities/attachment.entity';
import { CommentEntity, CommentMentionEntity } from '../modules/comments/entities/comment.entity';
import { IssueDependencyEntity } from '../modules/dependencies/entities/issue-dependency.entity';
import { IssueAssigneeEntity, IssueEntity, IssueLabelEntity } from '../modules/issues/entities/issue.entity';
import { NotificationEntity, NotificationPreferenceEntity } from '../modules/notifications/entities/notification.entity';
import { MilestoneEntity } from '../modules/milestones/entities/milestone.entity';
import { LabelEntity } from '../modules/labels/entities/label.entity';
import { InvitationEntity } from '../modules/members/entities/invitation.entity';
import { MemberEntity } from '../modules/members/entities/member.entity';
import { OrganizationEntity } from '../modules/organizations/entities/organization.entity';
import { BoardColumnEntity } from '../modules/projects/entities/board-column.entity';
import { BoardViewColumnEntity, BoardViewEntity } from '../modules/projects/entities/board-view.entity';
import { CustomViewEntity } from '../modules/projects/entities/custom-view.entity';
import { ProjectMemberEntity, ProjectTeamEntity } from '../modules/projects/entities/project-member.entity';
import { ProjectEntity } from '../modules/projects/entities/project.entity';
import { TeamEntity, TeamMemberEntity } from '../modules/teams/entities/team.entity';
import { AutomationRuleEntity, AutomationRuleRunEntity } from '../modules/automation/entities/automation-rule.entity';

/** Every entity, listed explicitly (no globs: the same list works compiled and under Jest). */
export const ENTITIES = [
  UserEntity,
  SessionEntity,
  OrganizationEntity,
  MemberEntity,
  InvitationEntity,
  ApiKeyEntity,
  ProjectEntity,
  BoardColumnEntity,
  BoardViewEntity,
  BoardViewColumnEntity,
  CustomViewEntity,
  ProjectMemberEntity,
  ProjectTeamEntity,
  TeamEntity,
  TeamMemberEntity,
  LabelEntity,
  IssueEntity,
  IssueAssigneeEntity,
  IssueLabelEntity,
  MilestoneEntity,
  CommentEntity,
  CommentMentionEntity,
  IssueDependencyEntity,
  ActivityEventEntity,
  AttachmentEntity,
  StorageDeletionEntity,
  NotificationEntity,
  NotificationPreferenceEntity,
  AutomationRuleEntity,
  AutomationRuleRunEntity,
];
