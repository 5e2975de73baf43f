import { AsyncLocalStorage } from 'node:async_hooks';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config';

/**
 * PostgreSQL's answers to a transaction that lost a race it did not cause: `40001`
 * serialization_failure, `40P01` deadlock_detected. The whole transaction is rolled back and can
 * simply run again.
 */
const RETRYABLE = new Set(['40001', '40P01']);

/** Attempts of one write, the first included. */
export const TX_MAX_ATTEMPTS = 5;

/** Whether `e` is a lost race that a fresh attempt of the whole transaction may win. */
export function isRetryableTxError(e: unknown): boolean {
  const code = e instanceof QueryFailedError ? (e.driverError as { code?: unknown } | undefined)?.code : undefined;
  return typeof code === 'string' && RETRYABLE.has(code);
}

/** Wait before attempt `attempt + 1`: full jitter over an exponential bound (5, 10, 20, 40 ms … at most 100 ms). */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(100, 5 * 2 ** (attempt - 1)));
}

/** The transaction the current async context runs in (set by TxRunner.run). */
interface TxScope {
  m: EntityManager;
  /** Test runs refuse a pool statement issued while the transaction is open (see Sql). */
  strict: boolean;
}
const SCOPE = new AsyncLocalStorage<TxScope>();

/**
 * The transaction of the current async context, while it is open: a statement sent on the pool
 * from inside it would wait for a second connection while holding the first (with every pool
 * connection held by writers queued on this transaction's row locks, nothing moves again).
 */
export function openTxOfContext(): TxScope | undefined {
  const s = SCOPE.getStore();
  return s?.m.queryRunner?.isTransactionActive && !s.m.queryRunner.isReleased ? s : undefined;
}

/**
 * The one way writers open a transaction: `this.tx.run(async (m) => …)`.
 *
 * - A lost race (serialization failure, deadlock) rolls the attempt back and runs `fn` again, at
 *   most TX_MAX_ATTEMPTS times in all, after a short random wait: the client never sees a conflict
 *   it did not cause. `fn` must therefore be safe to run again: it starts from the database (reads
 *   and locks inside `fn`), and whatever it staged (DomainEvents, after-commit work) belongs to
 *   the attempt's QueryRunner and is dropped with its rollback, so a retry stages it afresh.
 * - Given the caller's open transaction (`within`), `fn` runs in a savepoint of it and is not
 *   retried there: only the outermost transaction can be run again.
 *
 * Lock order of every write (so that waits never form a cycle): issue rows first (one issue, or
 * several in id order; `FOR NO KEY UPDATE`, `FOR UPDATE` only when a key column changes, `FOR
 * SHARE` for a parent that must not move), then the plan limit's advisory lock (limited plans
 * only), then the numbering counter (`projects.issue_seq`, `organizations.issue_seq`), then the
 * rows that triggers maintain (`issue_counts` in key order, the data version stripes at commit).
 * Nobody upgrades a row lock it already holds a weaker mode of.
 */
@Injectable()
export class TxRunner {
  private readonly log = new Logger('Transactions');
  private readonly strict: boolean;

  constructor(
    private readonly db: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.strict = config.nodeEnv === 'test';
  }

  async run<T>(fn: (m: EntityManager) => Promise<T>, within?: EntityManager | null): Promise<T> {
    if (within?.queryRunner?.isTransactionActive) return within.transaction((m) => SCOPE.run({ m, strict: this.strict }, () => fn(m)));
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction((m) => SCOPE.run({ m, strict: this.strict }, () => fn(m)));
      } catch (e) {
        if (!isRetryableTxError(e) || attempt >= TX_MAX_ATTEMPTS) {
          if (attempt > 1) this.log.warn(`Transaction failed after ${attempt} attempts: ${(e as Error).message}`);
          throw e;
        }
        this.log.debug(`Transaction attempt ${attempt} lost a race (${(e as Error).message}); retrying`);
        await new Promise((r) => setTimeout(r, retryDelayMs(attempt)));
      }
    }
  }
}
