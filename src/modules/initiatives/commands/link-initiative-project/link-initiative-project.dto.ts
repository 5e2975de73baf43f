import { Allow } from 'class-validator';

export class InitiativeProjectDto {
  /** Project UUID (edit access needed) */
  @Allow() project_id: string;
  /** Alias of project_id */
  @Allow() projectId?: string;
}
