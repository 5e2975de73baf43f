import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';
import { IsEmailAddress } from '../../../../common/http/input';

export class SignupDto {
  /** Email address (unique, case-insensitive) */
  @IsEmailAddress()
  @MaxLength(320)
  email: string;

  /** At least 8 characters */
  @IsString()
  @MinLength(8)
  @MaxLength(256)
  password: string;

  /** Name shown to others */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @Alias('displayName')
  display_name?: string;
}
