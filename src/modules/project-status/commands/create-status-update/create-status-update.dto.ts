import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/** Body of `POST /api/orgs/{id}/projects/{projectId}/status-updates` (checked by the handler). */
export class CreateStatusUpdateDto {
  @ApiProperty({ enum: ['on_track', 'at_risk', 'off_track'] })
  @Allow()
  status: string;

  @ApiProperty({ minLength: 1, maxLength: 10000, description: 'Markdown/plain text or HTML; stored as sanitized HTML (the comment rules)' })
  @Allow()
  summary: string;
}
