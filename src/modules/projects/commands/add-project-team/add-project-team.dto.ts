import { IsOptional, IsUUID } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

export class AddProjectTeamDto {
  /** Team of the same organization; its members get `edit` access to the project */
  @IsOptional()
  @IsUUID('all', { message: 'teamId must be a UUID' })
  @Alias('team_id')
  teamId?: string;
}
