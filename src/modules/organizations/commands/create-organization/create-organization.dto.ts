import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

export class CreateOrganizationDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  /** Default issue prefix: an uppercase letter then 1..9 uppercase letters or digits (derived from the name when omitted) */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z][A-Z0-9]{1,9}$/, { message: 'issue_prefix must be an uppercase letter followed by 1 to 9 uppercase letters or digits' })
  issue_prefix?: string;

  /** Alias of issue_prefix */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z][A-Z0-9]{1,9}$/, { message: 'issuePrefix must be an uppercase letter followed by 1 to 9 uppercase letters or digits' })
  issuePrefix?: string;
}
