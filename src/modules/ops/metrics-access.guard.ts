import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Errors } from '../../common/errors/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/**
 * Who may read GET /metrics (docs/DECISIONS.md "Operations"): with METRICS_TOKEN, only
 * `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise; compared in constant time over SHA-256
 * digests, so neither content nor length leaks through timing). Without it: public in development
 * and test, not served in production (404, as an unknown route).
 */
@Injectable()
export class MetricsAccessGuard implements CanActivate {
  private readonly expected: Buffer | null;
  private readonly production: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.expected = config.metricsToken === null ? null : digest(config.metricsToken);
    this.production = config.nodeEnv === 'production';
  }

  canActivate(ctx: ExecutionContext): boolean {
    if (this.expected === null) {
      if (this.production) throw Errors.notFound();
      return true;
    }
    const header = ctx.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const given = /^Bearer (\S+)$/i.exec(header)?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), this.expected)) throw Errors.unauthorized();
    return true;
  }
}
