import { IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { SLUG_RE } from '../../team-slug';
import { Trim, TrimLower } from '../../../../common/http/input';

/** Every field is optional; omitted fields keep their value. Renaming does not change the slug. */
export class UpdateTeamDto {
  /** New name, 1 to 100 characters (trimmed); null is refused */
  @ValidateIf((o: UpdateTeamDto) => o.name !== undefined)
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  /** New slug: lowercase kebab-case, unique in the organization (409 when taken); null is refused */
  @ValidateIf((o: UpdateTeamDto) => o.slug !== undefined)
  @TrimLower()
  @IsString()
  @MaxLength(100)
  @Matches(SLUG_RE, { message: 'slug must be lowercase letters and digits separated by single hyphens' })
  slug?: string;

  /** New description (at most 5000 characters); null or blank clears it */
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string | null;
}
