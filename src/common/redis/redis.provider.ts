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

  /** Waits (at most `ms`) for the connection, e.g. right after boot; false when it is not ready by then. */
  async whenReady(ms = 1000): Promise<boolean> {
    if (this.client.status === 'ready') return true;
    let timer: NodeJS.Timeout | undefined;
    let onReady: (() => void) | undefined;
    const ready = await Promise.race([
      new Promise<boolean>((resolve) => {
        onReady = () => resolve(true);
        this.client.once('ready', onReady);
      }),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      }),
    ]);
    clearTimeout(timer);
    if (onReady) this.client.removeListener('ready', onReady);
    return ready;
  }

  /** True when Redis answers within a second. */
  async ping(): Promise<boolean> {
    if (!(await this.whenReady(1000))) return false;
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, rej) => {
        timer = setTimeout(() => rej(new Error('timeout')), 1000);
      });
      return (await Promise.race([this.client.ping(), timeout])) === 'PONG';
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
