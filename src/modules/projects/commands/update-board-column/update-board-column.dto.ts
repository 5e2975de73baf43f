import { ApiHideProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';
import { HEX_COLOR_RE, RECOMMENDATION_ROLES, type RecommendationRole } from '../../project.rules';
import { Present, Rejected, Trim } from '../../projects.validation';

export class UpdateBoardColumnDto {
  /** Display label (1..100 characters) */
  @Present()
  @Trim()
  @IsString()
  @MinLength(1, { message: 'label must not be empty' })
  @MaxLength(100)
  label?: string;

  /** Stage criteria or agent guidance; null clears it */
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string | null;

  /** Hex color `#rrggbb`; null clears it */
  @IsOptional()
  @IsString()
  @Matches(HEX_COLOR_RE, { message: 'color must be a hex color like #1a2b3c' })
  color?: string | null;

  /** Workflow role for recommendations: `candidate`, `active` or `excluded`; null (or absent) = not configured; null clears it */
  @IsOptional()
  @IsIn(RECOMMENDATION_ROLES, { message: 'recommendationRole must be one of candidate, active, excluded (or null)' })
  @Alias('recommendation_role')
  recommendationRole?: RecommendationRole | null;

  /** Not changeable: issues store the key as their status */
  @ApiHideProperty()
  @Rejected('key cannot be changed (issues use it as their status); create a new column and delete this one with reassignTo')
  key?: unknown;

  /** Not changeable here: use PUT board-columns/reorder */
  @ApiHideProperty()
  @Rejected('position cannot be changed here (use PUT board-columns/reorder)')
  position?: unknown;
}
