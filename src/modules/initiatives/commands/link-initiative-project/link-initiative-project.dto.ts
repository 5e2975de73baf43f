import { Alias } from '../../../../common/http/aliases';

export class InitiativeProjectDto {
  /** Project UUID (edit access needed) */
  @Alias('projectId') project_id: string;
}
