import { SessionEntity } from '../modules/accounts/entities/session.entity';
import { UserEntity } from '../modules/accounts/entities/user.entity';
import { ApiKeyEntity } from '../modules/agents/entities/api-key.entity';
import { IssueEntity } from '../modules/issues/entities/issue.entity';
import { LabelEntity } from '../modules/labels/entities/label.entity';
import { MemberEntity } from '../modules/members/entities/member.entity';
import { OrganizationEntity } from '../modules/organizations/entities/organization.entity';
import { BoardColumnEntity } from '../modules/projects/entities/board-column.entity';
import { BoardViewColumnEntity, BoardViewEntity } from '../modules/projects/entities/board-view.entity';
import { CustomViewEntity } from '../modules/projects/entities/custom-view.entity';
import { ProjectMemberEntity, ProjectTeamEntity } from '../modules/projects/entities/project-member.entity';
import { ProjectEntity } from '../modules/projects/entities/project.entity';
import { TeamEntity, TeamMemberEntity } from '../modules/teams/entities/team.entity';

/** Every entity, listed explicitly (no globs: the same list works compiled and under Jest). */
export const ENTITIES = [
  UserEntity,
  SessionEntity,
  OrganizationEntity,
  MemberEntity,
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
];
