import { Allow, IsBoolean, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { Alias } from '../../common/http/aliases';

export class CreateGithubConnectionDto {
  /** A GitHub token (personal access token or app installation token); validated live; write-only, never returned */
  @IsString()
  @Length(1, 400)
  @Alias('access_token', 'accessToken')
  token: string;

  /** The webhook secret configured on GitHub (signs `X-Hub-Signature-256`); write-only, never returned */
  @IsString()
  @Length(8, 400)
  @Alias('webhookSecret')
  webhook_secret: string;
}

export class UpdateGithubConnectionDto {
  /** `off` (default: workflow processing is observe-only) or `attention` (completed workflow runs create `verification.completed` attention) */
  @IsOptional()
  @IsIn(['off', 'attention'])
  @Alias('verificationMode')
  verification_mode?: 'off' | 'attention';

  /** A disabled connection is not used for reads and its webhook URL answers 404 */
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

/** `{ url }`: checked only after authorization (a non-pull-request URL is 400). */
export class PrUrlDto {
  /** A canonical GitHub pull-request URL, `https://github.com/<owner>/<repo>/pull/<number>` */
  @Allow()
  url?: string;
}
