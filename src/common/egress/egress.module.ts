import { Module } from '@nestjs/common';
import { EgressClient } from './egress-client';

/** The SSRF-safe outbound HTTP client (see egress-client.ts); import where outbound calls are made. */
@Module({ providers: [EgressClient], exports: [EgressClient] })
export class EgressModule {}
