import { IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

const PROVIDER_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

export class CreateConnectionDto {
  /** The deployment provider: `vercel` (the default) */
  @IsOptional()
  @IsIn(['vercel'])
  provider?: string;

  /** A Vercel access token with read access to the project; write-only (sealed at rest, never returned) */
  @Alias('access_token', 'accessToken')
  @IsString()
  @MinLength(8)
  @MaxLength(512)
  @Matches(/^[\x21-\x7e]+$/, { message: 'token must be printable ASCII without spaces' })
  token: string;

  /** The Vercel team id (`team_…`); omit for a personal account */
  @Alias('teamId')
  @IsOptional()
  @IsString()
  @Matches(PROVIDER_ID, { message: 'team_id must be a Vercel team id' })
  team_id?: string;

  /** The Vercel project id (`prj_…`) */
  @Alias('projectId')
  @IsString()
  @Matches(PROVIDER_ID, { message: 'project_id must be a Vercel project id' })
  project_id: string;

  /** The secret Vercel signs callbacks with (HMAC-SHA1, `x-vercel-signature`); write-only */
  @Alias('webhookSecret')
  @IsString()
  @MinLength(8)
  @MaxLength(512)
  webhook_secret: string;
}
