import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** Body of `POST /api/orgs/{id}/templates` (checked by the handler: names the field in each 400). */
export class CreateTemplateDto {
  @ApiProperty({ minLength: 1, maxLength: 200, description: 'Unique in its scope in any letter case (409 `template_name_taken`)' })
  @Allow()
  name: string;

  @ApiProperty({ minLength: 1, maxLength: 100000, description: 'Markdown/plain text or HTML; stored as sanitized HTML (the comment rules)' })
  @Allow()
  content: string;

  @ApiPropertyOptional({ format: 'uuid', nullable: true, description: 'The project; omitted or null: an organization-wide template (owners and admins)' })
  @Alias('project_id')
  projectId?: string | null;
}
