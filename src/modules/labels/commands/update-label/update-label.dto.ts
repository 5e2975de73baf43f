import { IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { COLOR_RE, Trim } from '../../label-input';

/** Every field is optional; omitted fields keep their value. */
export class UpdateLabelDto {
  /** New name, 1 to 100 characters (trimmed), unique case-insensitively (409); null is refused */
  @ValidateIf((o: UpdateLabelDto) => o.name !== undefined)
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  /** Hex color `#rrggbb`; null clears it */
  @IsOptional()
  @IsString()
  @Matches(COLOR_RE, { message: 'color must be a hex color like #3366ff' })
  color?: string | null;

  /** At most 5000 characters; null or blank clears it */
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string | null;
}
