import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Tx } from '../../database/sql.service';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { hashSessionToken, newSessionToken, SESSION_COOKIE } from '../../common/auth/tokens';
import { SessionsRepository } from './accounts.repository';

/** Server-side sessions in PostgreSQL; the cookie carries only an opaque random token. */
@Injectable()
export class SessionService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: SessionsRepository,
  ) {}

  async create(userId: string, m?: Tx): Promise<string> {
    const token = newSessionToken();
    await this.repo.insert(
      {
        id: randomUUID(),
        tokenHash: hashSessionToken(this.config.sessionSecret, token),
        userId,
        expiresAt: new Date(Date.now() + this.config.sessionTtlDays * 86_400_000),
      },
      m,
    );
    return token;
  }

  setCookie(reply: FastifyReply, token: string): void {
    reply.setCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.nodeEnv === 'production',
      path: '/',
      maxAge: this.config.sessionTtlDays * 86_400,
    });
  }

  clearCookie(reply: FastifyReply): void {
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.config.nodeEnv === 'production' });
  }
}
