import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import type { Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { openTxOfContext } from './tx-runner';

/**
 * Where a repository statement runs: the EntityManager of the caller's transaction
 * (`db.transaction((m) => repo.method(m, …))`), or nothing for a statement of its own on the pool.
 */
export type Tx = EntityManager | null | undefined;

/** Whether statements given `m` run on the pool (no transaction, or its runner released), as `Sql` sends them. */
const onPool = (m: Tx): boolean => !m?.queryRunner || m.queryRunner.isReleased;

/**
 * Runs independent statements (each task sends one or more through a repository): all at once on
 * the pool, where each gets a connection of its own; one after another inside a transaction, whose
 * one connection runs one statement at a time (node-postgres queues a second one with a
 * DeprecationWarning, and pg 9 refuses it). Answers their results in order, as Promise.all.
 */
export async function independently<T extends readonly unknown[] | []>(m: Tx, tasks: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  const list = tasks as ReadonlyArray<() => Promise<unknown>>;
  if (onPool(m)) return (await Promise.all(list.map((task) => task()))) as unknown as T;
  const out: unknown[] = [];
  for (const task of list) out.push(await task());
  return out as unknown as T;
}

/**
 * The one way repositories talk to PostgreSQL (every `*.repository.ts` injects it; nothing else
 * runs SQL). Statements go straight to node-postgres, bypassing TypeORM's query runner set-up:
 *
 * - `rows` / `row` / `run` send a **named prepared statement** (named by a hash of its text), so
 *   PostgreSQL parses and plans it once per connection. Use them for static texts and texts
 *   assembled from a fixed set of fragments (the name space stays small);
 * - `planned` sends an unnamed statement, planned for its actual values on every execution: for
 *   texts that vary without bound (IN lists spelled out, dynamic column sets) or conditions whose
 *   selectivity varies too much for one generic plan.
 *
 * Given a transaction's EntityManager, the statement runs on that transaction's connection;
 * otherwise on the pool. Errors come back as TypeORM's `QueryFailedError` (as from `m.query`), so
 * the error filter and callers that look at `driverError.code` see one error type.
 */
@Injectable()
export class Sql {
  private readonly pool: Pool;
  /** Statement names by text (texts come from a fixed set of fragments, so the map stays small). */
  private readonly names = new Map<string, string>();
  /** Pool statements already reported as sent from inside an open transaction (warned once each). */
  private readonly warned = new Set<string>();

  constructor(db: DataSource) {
    this.pool = (db.driver as unknown as { master: Pool }).master;
  }

  /** Every row of a named prepared statement. */
  async rows<T = Record<string, any>>(text: string, values: readonly unknown[] = [], m?: Tx): Promise<T[]> {
    return (await this.send<T>({ name: this.nameOf(text), text, values: values as unknown[] }, m)).rows;
  }

  /** The first row of a named prepared statement, or undefined. */
  async row<T = Record<string, any>>(text: string, values: readonly unknown[] = [], m?: Tx): Promise<T | undefined> {
    return (await this.rows<T>(text, values, m))[0];
  }

  /** A named prepared statement run for its effect; answers the number of rows it touched. */
  async run(text: string, values: readonly unknown[] = [], m?: Tx): Promise<number> {
    return (await this.send({ name: this.nameOf(text), text, values: values as unknown[] }, m)).rowCount ?? 0;
  }

  /** Every row of an unnamed statement, planned for its actual values. */
  async planned<T = Record<string, any>>(text: string, values: readonly unknown[] = [], m?: Tx): Promise<T[]> {
    return (await this.send<T>({ text, values: values as unknown[] }, m)).rows;
  }

  /** @deprecated use `rows`: kept for the callers written before the repositories. */
  prepared<T = Record<string, any>>(text: string, values: unknown[]): Promise<T[]> {
    return this.rows<T>(text, values);
  }

  private nameOf(text: string): string {
    let name = this.names.get(text);
    if (name === undefined) {
      name = `q${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
      if (this.names.size >= 10_000) this.names.clear();
      this.names.set(text, name);
    }
    return name;
  }

  private async send<T>(q: QueryConfig, m: Tx): Promise<QueryResult<T & Record<string, any>>> {
    try {
      const client = await this.clientOf(m);
      if (!client) this.checkNotInsideTx(q.text);
      return client ? await client.query<T & Record<string, any>>(q) : await this.pool.query<T & Record<string, any>>(q);
    } catch (e) {
      if (e instanceof Error && typeof (e as { code?: unknown }).code === 'string' && !(e instanceof QueryFailedError)) {
        throw new QueryFailedError(q.text, q.values, e);
      }
      throw e;
    }
  }

  /**
   * A statement for the pool sent while this async context holds an open transaction (TxRunner)
   * would need a second connection while the first stays locked: with the pool's connections all
   * held by writers waiting for this transaction's row locks, nothing would ever move again. Pass
   * the transaction (`m`) instead. Refused in tests, logged once per statement otherwise.
   */
  private checkNotInsideTx(text: string): void {
    const tx = openTxOfContext();
    if (!tx) return;
    const what = `A statement was sent on the pool from inside an open transaction; pass the transaction's EntityManager: ${text.replace(/\s+/g, ' ').slice(0, 200)}`;
    if (tx.strict) throw new Error(what);
    if (this.warned.size < 1000 && !this.warned.has(text)) {
      this.warned.add(text);
      new Logger('Sql').warn(what);
    }
  }

  /** The pg connection of the manager's query runner (a transaction's), or null for the pool. */
  private async clientOf(m: Tx): Promise<PoolClient | null> {
    if (onPool(m)) return null;
    return (await m!.queryRunner!.connect()) as PoolClient;
  }
}
