import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';

/**
 * The few queries that run on every request (credential lookups, access grants, the member
 * directory page) go straight to the pg pool as named prepared statements: PostgreSQL parses and
 * plans each once per connection instead of on every request, and no TypeORM query runner is set
 * up around them. Everything else uses TypeORM.
 */
@Injectable()
export class HotSql {
  private readonly pool: Pool;

  constructor(db: DataSource) {
    this.pool = (db.driver as unknown as { master: Pool }).master;
  }

  async query<T = Record<string, any>>(name: string, text: string, values: unknown[]): Promise<T[]> {
    const r = await this.pool.query({ name, text, values });
    return r.rows as T[];
  }

  /**
   * An unnamed statement straight on the pool: planned for its actual values on every execution
   * (for conditions whose selectivity varies too much for one generic plan), without setting up
   * a TypeORM query runner.
   */
  async planned<T = Record<string, any>>(text: string, values: unknown[]): Promise<T[]> {
    const r = await this.pool.query({ text, values });
    return r.rows as T[];
  }

  /** Statement names by text (the texts come from a fixed set of fragments, so the map stays small). */
  private readonly names = new Map<string, string>();

  /** For statements assembled from a fixed set of fragments: named by a hash of their text. */
  prepared<T = Record<string, any>>(text: string, values: unknown[]): Promise<T[]> {
    let name = this.names.get(text);
    if (name === undefined) {
      name = `q${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
      if (this.names.size >= 10_000) this.names.clear();
      this.names.set(text, name);
    }
    return this.query<T>(name, text, values);
  }
}
