import { ApiHideProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';
import { COLUMN_KEY_RE, HEX_COLOR_RE, RECOMMENDATION_ROLES, type RecommendationRole } from '../../project.rules';
import { Rejected, Trim } from '../../projects.validation';

export class CreateBoardColumnDto {
  /** Status key: lowercase letter, then lowercase letters, digits or `_` (at most 50); not `cancelled`; unique in the project */
  @IsString()
  @Matches(COLUMN_KEY_RE, { message: 'key must start with a lowercase letter followed by up to 49 lowercase letters, digits or underscores' })
  key: string;

  /** Display label (1..100 characters) */
  @Trim()
  @IsString()
  @MinLength(1, { message: 'label must not be empty' })
  @MaxLength(100)
  label: string;

  /** Stage criteria or agent guidance (Markdown or plain text, at most 5000 characters) */
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string | null;

  /** Hex color `#rrggbb` */
  @IsOptional()
  @IsString()
  @Matches(HEX_COLOR_RE, { message: 'color must be a hex color like #1a2b3c' })
  color?: string | null;

  /** Workflow role for recommendations: `candidate`, `active` or `excluded`; null (or absent) = not configured */
  @IsOptional()
  @IsIn(RECOMMENDATION_ROLES, { message: 'recommendationRole must be one of candidate, active, excluded (or null)' })
  @Alias('recommendation_role')
  recommendationRole?: RecommendationRole | null;

  /** Not accepted: new columns are appended; use PUT board-columns/reorder */
  @ApiHideProperty()
  @Rejected('position cannot be set: new columns are appended at the end (use PUT board-columns/reorder)')
  position?: unknown;
}
