import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { SLUG_RE } from '../../team-slug';
import { Trim, TrimLower } from '../../../../common/http/input';

export class CreateTeamDto {
  /** Team name, 1 to 100 characters (surrounding whitespace is trimmed) */
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  /**
   * Lowercase kebab-case identifier, unique in the organization (409 when taken). Omitted: derived
   * from the name, with `-2`, `-3`, … appended when the derived slug is already used.
   */
  @IsOptional()
  @TrimLower()
  @IsString()
  @MaxLength(100)
  @Matches(SLUG_RE, { message: 'slug must be lowercase letters and digits separated by single hyphens' })
  slug?: string;

  /** Free text, at most 5000 characters; blank means none */
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string | null;
}
