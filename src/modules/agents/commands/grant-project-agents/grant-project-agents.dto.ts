import { ArrayMaxSize, IsArray, IsUUID } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';
import { Present } from '../../../../common/http/input';

/** Agents to give `edit` access to one project. */
export class GrantProjectAgentsDto {
  /** Agent ids (1..50): manageable, non-personal agents of the organization */
  @Present()
  @IsArray()
  @ArrayMaxSize(50)
  @IsUUID('all', { each: true, message: 'agentIds must contain agent ids (UUIDs)' })
  @Alias('agent_ids')
  agentIds?: string[];
}
