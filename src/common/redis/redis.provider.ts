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

  async ping(): Promise<boolean> {
    try {
      return (await Promise.race([this.client.ping(), new Promise<string>((_, rej) => setTimeout(() => rej(new Error('timeout')), 1000))])) === 'PONG';
    } catch {
      return false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
