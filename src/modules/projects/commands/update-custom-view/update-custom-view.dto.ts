import { IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { DISPLAY_MODES } from '../../custom-view.rules';
import { HEX_COLOR_RE } from '../../project.rules';
import { Present, Trim } from '../../projects.validation';

export class UpdateCustomViewDto {
  /** New name (1..100 characters) */
  @Present()
  @Trim()
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(100)
  name?: string;

  /** Replaces the saved filters (same keys as on create); null clears them */
  @IsOptional()
  @IsObject({ message: 'filters must be an object' })
  filters?: Record<string, unknown> | null;

  /** Replaces the sort `{ field, direction }`; null clears it */
  @IsOptional()
  @IsObject({ message: 'sort must be an object { field, direction }' })
  sort?: Record<string, unknown> | null;

  /** `list`, `board` or `table` */
  @Present()
  @IsIn(DISPLAY_MODES, { message: 'display_mode must be list, board or table' })
  display_mode?: 'list' | 'board' | 'table';

  /** Alias of display_mode */
  @Present()
  @IsIn(DISPLAY_MODES, { message: 'displayMode must be list, board or table' })
  displayMode?: 'list' | 'board' | 'table';

  /** Hex color `#rrggbb`; null clears it */
  @IsOptional()
  @IsString()
  @Matches(HEX_COLOR_RE, { message: 'color must be a hex color like #1a2b3c' })
  color?: string | null;

  /** Icon (1..64 characters); null clears it */
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'icon must not be empty (send null to clear it)' })
  @MaxLength(64)
  icon?: string | null;
}
