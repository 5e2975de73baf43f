import { Injectable } from '@nestjs/common';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { Errors } from '../errors/domain-error';
import { RedisService } from '../redis/redis.provider';

export interface RateLimitRule {
  /** Name of the rule (part of the Redis key). */
  name: string;
  points: number;
  durationSeconds: number;
  /** When the Redis check itself fails: true refuses with 503 RATE_LIMIT_CHECK_FAILED, false lets the request through. */
  failClosed: boolean;
}

/** Redis-backed rate limiting (rate-limiter-flexible), shared by every module and every process. */
@Injectable()
export class RateLimitService {
  private readonly limiters = new Map<string, RateLimiterRedis>();

  constructor(private readonly redis: RedisService) {}

  private limiter(rule: RateLimitRule): RateLimiterRedis {
    let l = this.limiters.get(rule.name);
    if (!l) {
      l = new RateLimiterRedis({
        storeClient: this.redis.client,
        keyPrefix: `rl:${rule.name}`,
        points: rule.points,
        duration: rule.durationSeconds,
        useRedisPackage: false,
      });
      this.limiters.set(rule.name, l);
    }
    return l;
  }

  /** Consumes one point for `key`; throws 429 RATE_LIMITED (with Retry-After) when over the limit. */
  async consume(rule: RateLimitRule, key: string): Promise<void> {
    try {
      await this.redis.whenReady(500); // right after boot the connection may still be opening
      await this.limiter(rule).consume(key, 1);
    } catch (e) {
      if (e instanceof RateLimiterRes) {
        throw Errors.rateLimited(Math.max(1, Math.ceil(e.msBeforeNext / 1000)), rule.points, e.consumedPoints);
      }
      if (rule.failClosed) throw Errors.rateLimitCheckFailed();
    }
  }

  /** Gives back one point consumed for `key` (an attempt that turned out not to count). Best effort: Redis errors are ignored. */
  async refund(rule: RateLimitRule, key: string): Promise<void> {
    await this.limiter(rule)
      .reward(key, 1)
      .catch(() => undefined);
  }
}
