import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

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
  projectIds?: string[];

  /** Alias of projectIds */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true, message: 'project_ids must contain project ids (UUIDs)' })
  project_ids?: string[];

  /** Legacy single project (merged with projectIds) */
  @IsOptional()
  @IsUUID('all', { message: 'projectId must be a project id (UUID)' })
  projectId?: string;

  /** Alias of projectId */
  @IsOptional()
  @IsUUID('all', { message: 'project_id must be a project id (UUID)' })
  project_id?: string;

  /** `true` creates a personal agent owned by the caller */
  @IsOptional()
  @IsBoolean()
  personal?: boolean;
}
