import { IsOptional, IsUUID } from 'class-validator';

export class AddProjectTeamDto {
  /** Team of the same organization; its members get `edit` access to the project */
  @IsOptional()
  @IsUUID('all', { message: 'teamId must be a UUID' })
  teamId?: string;

  /** Alias of teamId */
  @IsOptional()
  @IsUUID('all', { message: 'team_id must be a UUID' })
  team_id?: string;
}
