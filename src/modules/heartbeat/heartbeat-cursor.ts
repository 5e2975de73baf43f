import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { sameMacText } from '../../common/crypto/mac-text';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Errors } from '../../common/errors/domain-error';

/** What a heartbeat cursor names: page `page` of run `run` of one member, or the run's acknowledgement. */
export interface CursorBody {
  kind: 'page' | 'ack';
  org: string;
  member: string;
  run: string;
  page: number;
}

const invalid = (what: string) => Errors.validation(`Invalid ${what}: it is not a cursor this service issued for you`);

/**
 * Opaque, tamper-proof heartbeat cursors: the position is signed with HMAC-SHA256 under a key
 * derived from the session secret and bound to the organization and member. Whether a valid cursor
 * is still current (single use in sequence, acknowledged) is decided by the stream state.
 */
@Injectable()
export class HeartbeatCursorCodec {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = createHmac('sha256', config.sessionSecret).update('heartbeat-cursor/v1').digest();
  }

  encode(c: CursorBody): string {
    const payload = Buffer.from(JSON.stringify([c.kind === 'ack' ? 'a' : 'p', c.org, c.member, c.run, c.page])).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** 400 (`what` names the parameter) when malformed, tampered with, of another kind or for another caller. */
  decode(cursor: string, kind: CursorBody['kind'], org: string, member: string, what: string): CursorBody {
    if (typeof cursor !== 'string' || cursor.length > 512) throw invalid(what);
    const parts = cursor.split('.');
    if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9_-]+$/.test(parts[1])) throw invalid(what);
    if (!sameMacText(parts[1], this.sign(parts[0]))) throw invalid(what);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    } catch {
      throw invalid(what);
    }
    if (!Array.isArray(body) || body.length !== 5) throw invalid(what);
    const [k, o, m, run, page] = body as unknown[];
    if (k !== (kind === 'ack' ? 'a' : 'p') || o !== org || m !== member || typeof run !== 'string' || typeof page !== 'number') throw invalid(what);
    return { kind, org, member, run, page };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
