import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { RateLimitService, type RateLimitRule } from '../../common/rate-limit/rate-limit.service';
import { APP_CONFIG, type AppConfig } from '../../config/config';

/**
 * Limits on credential attempts (docs/DECISIONS.md "Accounts and sessions"):
 * - per client address: signup and login attempts share AUTH_RATE_LIMIT_PER_MINUTE;
 * - per account, whatever the address: AUTH_LOGIN_FAILURES_PER_ACCOUNT failed logins per
 *   AUTH_LOGIN_FAILURE_WINDOW_SECONDS. Each attempt reserves a point before the password is
 *   checked (so parallel guesses cannot overshoot) and a success gives its own point back; it
 *   never clears failures counted before it.
 * Both fail closed: when Redis cannot answer, signup and login are 503 RATE_LIMIT_CHECK_FAILED.
 */
@Injectable()
export class CredentialLimits {
  private readonly perAddress: RateLimitRule;
  private readonly failuresPerAccount: RateLimitRule;

  constructor(
    private readonly rateLimit: RateLimitService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.perAddress = { name: 'auth-ip', points: config.authRateLimitPerMinute, durationSeconds: 60, failClosed: true };
    this.failuresPerAccount = {
      name: 'auth-login-account',
      points: config.loginFailuresPerAccount,
      durationSeconds: config.loginFailureWindowSeconds,
      failClosed: true,
    };
  }

  /** Before a signup: the address budget. */
  async signupAttempt(clientAddress: string): Promise<void> {
    await this.rateLimit.consume(this.perAddress, clientAddress);
  }

  /** Before a login: the address budget, then the account's failure budget (one point reserved). */
  async loginAttempt(clientAddress: string, email: string): Promise<void> {
    await this.rateLimit.consume(this.perAddress, clientAddress);
    await this.rateLimit.consume(this.failuresPerAccount, accountKey(email));
  }

  /** After a successful login: its reserved point was not a failure. */
  async loginSucceeded(email: string): Promise<void> {
    await this.rateLimit.refund(this.failuresPerAccount, accountKey(email));
  }
}

/** The account's limiter key: a hash of the normalized email (emails are unique case-insensitively), so Redis holds no addresses. */
const accountKey = (email: string): string => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
