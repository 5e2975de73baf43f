import { IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { DISPLAY_MODES } from '../../custom-view.rules';
import { HEX_COLOR_RE } from '../../project.rules';
import { Trim } from '../../projects.validation';
import { Alias } from '../../../../common/http/aliases';

export class CreateCustomViewDto {
  /** View name (1..100 characters) */
  @Trim()
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(100)
  name: string;

  /**
   * Saved issue filters. Known keys: `status` (string[]), `priority` (integers 0..3), `assignee`
   * (`me`, `unassigned` or a member id), `assigneeIds`, `labelIds` (UUID[]), `q` (string), `open`,
   * `includeArchived` (boolean), `milestoneId`, `teamId` (UUID). Unknown keys are refused.
   */
  @IsOptional()
  @IsObject({ message: 'filters must be an object' })
  filters?: Record<string, unknown> | null;

  /** `{ field, direction }`: field `created_at`, `updated_at`, `priority`, `due_date`, `title` or `status`; direction `asc` or `desc` (default `desc`) */
  @IsOptional()
  @IsObject({ message: 'sort must be an object { field, direction }' })
  sort?: Record<string, unknown> | null;

  /** `list` (default), `board` or `table` */
  @IsOptional()
  @IsIn(DISPLAY_MODES, { message: 'display_mode must be list, board or table' })
  @Alias('displayMode')
  display_mode?: 'list' | 'board' | 'table';

  /** Hex color `#rrggbb` */
  @IsOptional()
  @IsString()
  @Matches(HEX_COLOR_RE, { message: 'color must be a hex color like #1a2b3c' })
  color?: string | null;

  /** Icon name or emoji (1..64 characters) */
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'icon must not be empty (send null to clear it)' })
  @MaxLength(64)
  icon?: string | null;
}
