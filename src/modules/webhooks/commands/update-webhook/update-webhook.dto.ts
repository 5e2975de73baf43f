import { Allow, ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsObject, IsOptional } from 'class-validator';
import { PURPOSES, SUBSCRIBABLE_EVENTS } from '../../webhooks.constants';

/** Every field is optional; omitted fields keep their value. */
export class UpdateWebhookDto {
  /** New destination URL (same rules as create); creates a new private destination version */
  @Allow()
  url?: unknown;

  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(10)
  @IsIn(SUBSCRIBABLE_EVENTS, { each: true, message: `events must contain only ${SUBSCRIBABLE_EVENTS.join(', ')}` })
  events?: string[];

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @IsOptional()
  @IsIn(PURPOSES)
  purpose?: string;

  /** `{ type: "bearer", secret }`: a blank secret keeps the stored token; `{ type: "none" }` clears it */
  @IsOptional()
  @IsObject()
  auth?: Record<string, unknown>;

  /** Omit to keep; `enabled: true` with a blank secret keeps it; a valid secret replaces it; `enabled: false` clears it */
  @IsOptional()
  @IsObject()
  standard_webhooks?: Record<string, unknown>;

  /** Alias of `standard_webhooks` */
  @IsOptional()
  @IsObject()
  standardWebhooks?: Record<string, unknown>;

  /** `true`: a new signing secret (returned once as `secret`); the previous one keeps signing for 7 days (`X-Service-Signatures`) */
  @IsOptional()
  @IsBoolean()
  rotate_secret?: boolean;
}
