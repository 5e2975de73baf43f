import { ArrayMaxSize, IsArray, IsUUID } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';
import { Present } from '../../../../common/http/input';

/** The complete new project list of a project-scoped agent (at least one project). */
export class ReplaceAgentProjectsDto {
  /** Project ids (1..100); projects added get `edit` access, existing entries keep their level */
  @Present() // absent: the handler's "projectIds is required"; null is refused here
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true, message: 'projectIds must contain project ids (UUIDs)' })
  @Alias('project_ids')
  projectIds?: string[];
}
