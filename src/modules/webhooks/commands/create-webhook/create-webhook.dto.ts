import { ApiProperty } from '@nestjs/swagger';
import { Allow, ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsObject, IsOptional } from 'class-validator';
import { PURPOSES, SUBSCRIBABLE_EVENTS } from '../../webhooks.constants';
import { Alias } from '../../../../common/http/aliases';

export class CreateWebhookDto {
  /** HTTPS URL with a public DNS hostname (IP literals, localhost, .local and single-label hosts are refused); no credentials */
  @Allow()
  @ApiProperty({ type: 'string', format: 'uri' })
  url: unknown;

  /** Events to receive: `issue.created`, `issue.updated` (default none) */
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @ArrayMaxSize(10)
  @IsIn(SUBSCRIBABLE_EVENTS, { each: true, message: `events must contain only ${SUBSCRIBABLE_EVENTS.join(', ')}` })
  events?: string[];

  /** Default true */
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  /** `webhook` (default: subscriptions), `automation` (usable by automation `send_webhook` only) or `both` */
  @IsOptional()
  @IsIn(PURPOSES)
  purpose?: string;

  /** `{ type: "bearer", secret }` (sent as `Authorization: Bearer <secret>`) or `{ type: "none" }` (default) */
  @IsOptional()
  @IsObject()
  auth?: Record<string, unknown>;

  /** `{ enabled: true, secret: "whsec_<standard Base64 of 24..64 bytes>" }` adds Standard Webhooks headers; write-only */
  @IsOptional()
  @IsObject()
  @Alias('standardWebhooks')
  standard_webhooks?: Record<string, unknown>;
}
