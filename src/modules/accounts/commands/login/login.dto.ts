import { IsString, MaxLength } from 'class-validator';

export class LoginDto {
  @IsString()
  @MaxLength(320)
  email: string;

  @IsString()
  @MaxLength(256)
  password: string;
}
