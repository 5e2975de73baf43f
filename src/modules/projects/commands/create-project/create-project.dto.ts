import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { HEX_COLOR_RE, PROJECT_KEY_RE } from '../../project.rules';
import { Trim } from '../../projects.validation';

export class CreateProjectDto {
  /** Project name (1..200 characters) */
  @Trim()
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(200)
  name: string;

  /**
   * Issue prefix: an uppercase letter then 1..9 uppercase letters or digits (e.g. `WEB`). Unique in
   * the organization (409 when taken); derived from the name when omitted.
   */
  @IsOptional()
  @Trim()
  @IsString()
  @Matches(PROJECT_KEY_RE, { message: 'key must be an uppercase letter followed by 1 to 9 uppercase letters or digits' })
  key?: string | null;

  /** Markdown or plain text (at most 20000 characters) */
  @IsOptional()
  @IsString()
  @MaxLength(20000)
  description?: string | null;

  /** Hex color `#rrggbb` */
  @IsOptional()
  @IsString()
  @Matches(HEX_COLOR_RE, { message: 'color must be a hex color like #1a2b3c' })
  color?: string | null;

  /** Icon name or emoji (at most 64 characters) */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  icon?: string | null;
}
