import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../../config/config';

/** The shared Redis connection for rate limiting and health (Bull keeps its own connections). */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  readonly client: Redis;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.client = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, lazyConnect: false });
    this.client.on('error', () => undefined); // surfaced through health and fail-closed checks
  }

  /** True when Redis answers within a second (waits for the connection right after boot). */
  async ping(): Promise<boolean> {
    const deadline = new Promise<never>((_, rej) => setTimeout(() => rej(new Error('timeout')), 1000));
    try {
      if (this.client.status !== 'ready') {
        await Promise.race([new Promise<void>((resolve) => this.client.once('ready', () => resolve())), deadline]);
      }
      return (await Promise.race([this.client.ping(), deadline])) === 'PONG';
    } catch {
      return false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
