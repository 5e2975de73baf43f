import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

export class CreateOrganizationDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  /** Default issue prefix: an uppercase letter then 1..9 uppercase letters or digits (derived from the name when omitted) */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z][A-Z0-9]{1,9}$/, { message: 'issue_prefix must be an uppercase letter followed by 1 to 9 uppercase letters or digits' })
  @Alias('issuePrefix')
  issue_prefix?: string;
}
