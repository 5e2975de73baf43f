import { loadConfig } from '../../src/config/config';
import { DomainError } from '../../src/common/errors/domain-error';
import { RateLimitService, type RateLimitRule } from '../../src/common/rate-limit/rate-limit.service';
import { RedisService } from '../../src/common/redis/redis.provider';
import { reservedPort } from '../support/ports';

describe('RateLimitService (Redis-backed)', () => {
  const rule = (name: string, failClosed: boolean, points = 2): RateLimitRule => ({ name: `${name}-${Date.now()}`, points, durationSeconds: 60, failClosed });

  it('counts per key in the real Redis and refuses with 429 RATE_LIMITED over the limit', async () => {
    const redis = new RedisService(loadConfig(process.env));
    const limiter = new RateLimitService(redis);
    const r = rule('count', true);
    await limiter.consume(r, 'k1');
    await limiter.consume(r, 'k1');
    const err = await limiter.consume(r, 'k1').catch((e) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED', extra: { limit: 2, currentCount: 3 } });
    await expect(limiter.consume(r, 'other-key')).resolves.toBeUndefined();
    await redis.onApplicationShutdown();
  });

  it('refund gives one consumed point back (an attempt that turned out not to count)', async () => {
    const redis = new RedisService(loadConfig(process.env));
    const limiter = new RateLimitService(redis);
    const r = rule('refund', true);
    await limiter.consume(r, 'k');
    await limiter.consume(r, 'k');
    await limiter.refund(r, 'k');
    await expect(limiter.consume(r, 'k')).resolves.toBeUndefined(); // 2 of 2 again
    await expect(limiter.consume(r, 'k')).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    await redis.onApplicationShutdown();
  });

  it('when Redis cannot be reached: fail-closed rules give 503 RATE_LIMIT_CHECK_FAILED, fail-open rules let the request through', async () => {
    const port = await reservedPort();
    const redis = new RedisService(loadConfig({ ...process.env, REDIS_URL: `redis://127.0.0.1:${port}` }));
    const limiter = new RateLimitService(redis);
    const err = await limiter.consume(rule('closed', true), 'k').catch((e) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ status: 503, code: 'RATE_LIMIT_CHECK_FAILED', extra: { retryAfterSeconds: null } });
    await expect(limiter.consume(rule('open', false), 'k')).resolves.toBeUndefined();
    await expect(limiter.refund(rule('closed', true), 'k')).resolves.toBeUndefined(); // best effort
    redis.client.disconnect();
  });
});
