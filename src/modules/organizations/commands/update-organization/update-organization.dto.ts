import { OmitType, PartialType } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';
import { CreateOrganizationDto } from '../create-organization/create-organization.dto';

export class UpdateOrganizationDto extends PartialType(OmitType(CreateOrganizationDto, ['issue_prefix'] as const)) {
  /** Default issue prefix (existing issue numbers are unchanged) */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z][A-Z0-9]{1,9}$/, { message: 'issue_prefix must be an uppercase letter followed by 1 to 9 uppercase letters or digits' })
  @Alias('issuePrefix')
  issue_prefix?: string;
}
