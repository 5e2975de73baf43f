import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Actor } from '../../common/auth/principal';
import { Errors } from '../../common/errors/domain-error';
import { requestHash } from './execution-rules';
import { IdempotencyRepository } from './idempotency.repository';

/** A write's answer: its HTTP status and body (a replay answers both again). */
export interface Answer<T> {
  status: number;
  body: T;
}

/**
 * Runs a keyed write exactly once: the key is taken in the write's own transaction, so two
 * concurrent requests with one key make one effect (the second waits for the first, then answers
 * its result); the same key and body answer the original status and body; the same key with
 * another body is 409 `IDEMPOTENCY_KEY_REUSED`. A write that fails leaves the key free.
 */
@Injectable()
export class IdempotentWrites {
  constructor(
    private readonly db: DataSource,
    private readonly keys: IdempotencyRepository,
  ) {}

  async run<T>(actor: Actor, scope: string, key: string, body: unknown, work: (m: EntityManager) => Promise<Answer<T>>): Promise<Answer<T>> {
    const hash = requestHash(body);
    return this.db.transaction(async (m) => {
      const prior = await this.keys.take(m, actor.orgId, actor.memberId, scope, key, hash);
      if (prior) {
        if (prior.request_hash !== hash) {
          throw Errors.conflict('This idempotency_key was already used with a different request body', 'IDEMPOTENCY_KEY_REUSED');
        }
        return { status: prior.status_code ?? 200, body: prior.response as T };
      }
      const out = await work(m);
      const json = JSON.parse(JSON.stringify(out.body)) as T;
      await this.keys.complete(m, actor.orgId, actor.memberId, scope, key, out.status, json);
      return { status: out.status, body: json };
    });
  }
}
