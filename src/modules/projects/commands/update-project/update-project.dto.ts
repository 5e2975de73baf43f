import { ApiHideProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { HEX_COLOR_RE } from '../../project.rules';
import { Present, Rejected, Trim } from '../../projects.validation';

export class UpdateProjectDto {
  /** New name (1..200 characters); the slug stays as it is */
  @Present()
  @Trim()
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(200)
  name?: string;

  /** Markdown or plain text; null clears it */
  @IsOptional()
  @IsString()
  @MaxLength(20000)
  description?: string | null;

  /** Hex color `#rrggbb`; null clears it */
  @IsOptional()
  @IsString()
  @Matches(HEX_COLOR_RE, { message: 'color must be a hex color like #1a2b3c' })
  color?: string | null;

  /** Icon (at most 64 characters); null clears it */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  icon?: string | null;

  /** `active` or `archived`; reactivating counts against the plan's active projects */
  @Present()
  @IsIn(['active', 'archived'], { message: 'status must be active or archived' })
  status?: 'active' | 'archived';

  /** Not changeable: issue identifiers are built from it */
  @ApiHideProperty()
  @Rejected('key cannot be changed after the project is created')
  key?: unknown;

  /** Not changeable */
  @ApiHideProperty()
  @Rejected('slug cannot be changed')
  slug?: unknown;
}
