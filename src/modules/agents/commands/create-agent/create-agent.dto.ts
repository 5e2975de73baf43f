import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/**
 * Creates one agent. Three kinds:
 * - organization agent `{ name, role? }` (owner/admin callers; role `member` or `admin`, default `member`);
 * - project-scoped agent `{ name, projectIds }` (a guest with `edit` on each project; the caller needs `admin` on each);
 * - personal agent `{ name, personal: true }` (acts with the caller's own live access).
 */
export class CreateAgentDto {
  /** Name of the agent (1..200 characters) */
  @IsString()
  @MaxLength(200)
  name: string;

  /** Organization agents only: `member` (default) or `admin`. An agent can never be `owner`. */
  @IsOptional()
  @IsIn(['member', 'admin'], { message: 'role must be member or admin (an agent can never be owner)' })
  role?: 'member' | 'admin';

  /** Project-scoped agent: the projects it gets `edit` access to (1..100 project ids) */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true, message: 'projectIds must contain project ids (UUIDs)' })
  @Alias('project_ids')
  projectIds?: string[];

  /** Legacy single project (merged with projectIds) */
  @IsOptional()
  @IsUUID('all', { message: 'projectId must be a project id (UUID)' })
  @Alias('project_id')
  projectId?: string;

  /** `true` creates a personal agent owned by the caller */
  @IsOptional()
  @IsBoolean()
  personal?: boolean;
}
