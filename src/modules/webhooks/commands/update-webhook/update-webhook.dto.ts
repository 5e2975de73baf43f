import { ApiProperty, PartialType, PickType } from '@nestjs/swagger';
import { Allow, IsBoolean, IsObject, IsOptional } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';
import { CreateWebhookDto } from '../create-webhook/create-webhook.dto';

/** Every field is optional; omitted fields keep their value. */
export class UpdateWebhookDto extends PartialType(PickType(CreateWebhookDto, ['events', 'enabled', 'purpose'] as const)) {
  /** New destination URL (same rules as create); creates a new private destination version */
  @Allow()
  @ApiProperty({ type: 'string', format: 'uri', required: false })
  url?: unknown;

  /** `{ type: "bearer", secret }`: a blank secret keeps the stored token; `{ type: "none" }` clears it */
  @IsOptional()
  @IsObject()
  auth?: Record<string, unknown>;

  /** Omit to keep; `enabled: true` with a blank secret keeps it; a valid secret replaces it; `enabled: false` clears it */
  @IsOptional()
  @IsObject()
  @Alias('standardWebhooks')
  standard_webhooks?: Record<string, unknown>;

  /** `true`: a new signing secret (returned once as `secret`); the previous one keeps signing for 7 days (`X-Service-Signatures`) */
  @IsOptional()
  @IsBoolean()
  rotate_secret?: boolean;
}
