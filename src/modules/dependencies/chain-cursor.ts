import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { sameMacText } from '../../common/crypto/mac-text';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Errors } from '../../common/errors/domain-error';

export interface ChainPosition {
  root: string;
  direction: string;
  depth: number;
  offset: number;
}

const invalid = () => Errors.validation('Invalid cursor');

/**
 * Opaque, tamper-proof cursors of the dependency chain: the position is signed with HMAC-SHA256
 * under a key derived from the session secret, and bound to the root, direction and depth.
 */
@Injectable()
export class ChainCursorCodec {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = createHmac('sha256', config.sessionSecret).update('dependency-chain-cursor/v1').digest();
  }

  /** Key of the restricted-node tokens of one caller's view of one chain (stable across its pages). */
  tokenKey(memberId: string, rootIssueId: string): Buffer {
    return createHmac('sha256', this.key).update(`restricted-token/v1|${memberId}|${rootIssueId}`).digest();
  }

  encode(p: ChainPosition): string {
    const payload = Buffer.from(JSON.stringify({ r: p.root, dir: p.direction, d: p.depth, o: p.offset })).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The offset encoded in `cursor`; 400 when it is malformed, tampered with, or for another chain. */
  decode(cursor: string, expect: Omit<ChainPosition, 'offset'>): number {
    if (cursor.length > 512) throw invalid();
    const parts = cursor.split('.');
    if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9_-]+$/.test(parts[1])) throw invalid();
    if (!sameMacText(parts[1], this.sign(parts[0]))) throw invalid();
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    } catch {
      throw invalid();
    }
    const o = body?.o;
    if (body?.r !== expect.root || body?.dir !== expect.direction || body?.d !== expect.depth) {
      throw Errors.validation('Invalid cursor: it belongs to another chain (root, direction or depth changed)');
    }
    if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0) throw invalid();
    return o;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
