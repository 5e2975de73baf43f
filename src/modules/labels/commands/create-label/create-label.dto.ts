import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { COLOR_RE, Trim } from '../../label-input';

export class CreateLabelDto {
  /** 1 to 100 characters (trimmed); unique in the organization, case-insensitively (409) */
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  /** Hex color `#rrggbb` (stored lowercase); null or omitted for none */
  @IsOptional()
  @IsString()
  @Matches(COLOR_RE, { message: 'color must be a hex color like #3366ff' })
  color?: string | null;

  /** Free text, at most 5000 characters; blank means none */
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string | null;
}
