import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/** Body of `PATCH /api/orgs/{id}/templates/{templateId}`: at least one field; the scope never changes. */
export class UpdateTemplateDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @Allow()
  name?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100000, description: 'Markdown/plain text or HTML; stored as sanitized HTML' })
  @Allow()
  content?: string;
}
