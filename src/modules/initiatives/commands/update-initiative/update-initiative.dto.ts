import { OmitType, PartialType } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';
import { CreateInitiativeDto } from '../create-initiative/create-initiative.dto';

/** Only the fields sent change; null clears. `name` is refused (updates use title). */
export class UpdateInitiativeDto extends PartialType(OmitType(CreateInitiativeDto, ['title', 'name', 'project_id'] as const)) {
  /** 1..500 characters after trimming; the legacy name follows it */
  @Allow() title?: string;
  /** Refused with 400: updates use title */
  @Allow() name?: string;
  /** Moving the primary project needs edit on the old and the new project (null = unbind: every remaining project, or owner/admin) */
  @Alias('projectId') project_id?: string | null;
}
