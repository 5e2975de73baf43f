import { verifyVercelSignature } from './vercel-signature';

describe('verifyVercelSignature (HMAC-SHA1 of the raw body, hex)', () => {
  // RFC 2202 test case 2 (HMAC-SHA1): key "Jefe", data "what do ya want for nothing?"
  const KEY = 'Jefe';
  const DATA = Buffer.from('what do ya want for nothing?');
  const DIGEST = 'effcdf6ae5eb2fa2d27416d5f184df9c259a7c79';

  it('accepts the published vector, in either case', () => {
    expect(verifyVercelSignature(KEY, DATA, DIGEST)).toBe(true);
    expect(verifyVercelSignature(KEY, DATA, DIGEST.toUpperCase())).toBe(true);
  });

  it('refuses another key, other bytes, and malformed or wrong-length values without throwing', () => {
    expect(verifyVercelSignature('jefe', DATA, DIGEST)).toBe(false);
    expect(verifyVercelSignature(KEY, Buffer.from('what do ya want for nothing? '), DIGEST)).toBe(false);
    for (const bad of [undefined, null, 42, '', DIGEST.slice(0, 39), `${DIGEST}0`, `${DIGEST}00`, `sha1=${DIGEST}`, 'g'.repeat(40), ['x']]) {
      expect(verifyVercelSignature(KEY, DATA, bad)).toBe(false);
    }
  });
});
