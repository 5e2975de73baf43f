import { DomainError } from '../../common/errors/domain-error';
import { checkAllowlistHost, configHash, evaluatePointer, isJsonPointer, looksLikeSecret, numericValue, scaledValue, validateSyncConfig } from './sync-config';
import { recordedFor } from './sync-schedule';
import { SecretBox } from '../../common/crypto/secret-box';
import { openSecret, SYNC_SECRETS_PURPOSE, sealSecret } from './sync-secrets';

const HOST = 'metrics.example.com';
const ALLOW = new Set([HOST]);
const req = (over: Record<string, unknown> = {}) => ({ method: 'GET', url: `https://${HOST}/v1/metric`, ...over });
const ext = (over: Record<string, unknown> = {}) => ({ contentType: 'json', pointer: '/value', numeric: { mode: 'number', percentageScale: null }, ...over });
const parts = (r: unknown = req(), e: unknown = ext(), f: unknown = {}) => ({ request: r, extraction: e, freshness: f });

function problem(p: ReturnType<typeof parts>, re: RegExp): void {
  let err: unknown;
  try {
    validateSyncConfig(p, ALLOW);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).status).toBe(400);
  expect((err as DomainError).message).toMatch(re);
}

describe('validateSyncConfig: every rule violation is a clear 400', () => {
  it.each([
    ['http URL', parts(req({ url: `http://${HOST}/v1/metric` })), /must use https/],
    ['POST', parts(req({ method: 'POST' })), /method must be GET/],
    ['query string', parts(req({ url: `https://${HOST}/v1/metric?range=7d` })), /query string/],
    ['bare question mark', parts(req({ url: `https://${HOST}/v1/metric?` })), /query string/],
    ['fragment', parts(req({ url: `https://${HOST}/v1/metric#x` })), /fragment/],
    ['credentials', parts(req({ url: `https://user:pw@${HOST}/v1/metric` })), /credentials/],
    ['explicit port', parts(req({ url: `https://${HOST}:8443/v1/metric` })), /default https port/],
    ['unallowlisted host', parts(req({ url: 'https://other.example.com/v1/metric' })), /not on the organization's KPI HTTP sync allowlist/],
    ['subdomain of an allowlisted host', parts(req({ url: `https://a.${HOST}/v1/metric` })), /allowlist/],
    ['IP literal', parts(req({ url: 'https://93.184.216.34/v1' })), /not an IP address/],
    ['IPv6 literal', parts(req({ url: 'https://[2606:2800::1]/v1' })), /not an IP address/],
    ['localhost', parts(req({ url: 'https://localhost/v1' })), /public DNS hostname/],
    ['.local', parts(req({ url: 'https://printer.local/v1' })), /public DNS hostname/],
    ['request body', parts(req({ body: '{"a":1}' })), /no request body/],
    ['query params object', parts(req({ query: { a: 1 } })), /no query string/],
    ['followRedirects', parts(req({ followRedirects: true })), /redirects are never followed/],
    ['inline bearer secret', parts(req({ headers: { Authorization: 'Bearer sk-live-inline-secret-123' } })), /inline secret values are not allowed/],
    ['inline api key', parts(req({ headers: { 'X-API-Key': 'abc123' } })), /inline secret values are not allowed/],
    ['other header', parts(req({ headers: { 'X-Custom': { secretRef: 'TOKEN', format: '{value}' } } })), /only Authorization.*X-API-Key/],
    [
      'wrong authorization format',
      parts(req({ headers: { Authorization: { secretRef: 'TOKEN', format: 'Token {value}' } } })),
      /format must be "Bearer \{value\}"/,
    ],
    ['bad secretRef', parts(req({ headers: { Authorization: { secretRef: '1 bad', format: 'Bearer {value}' } } })), /secretRef must be a secret name/],
    [
      'a credential pasted as secretRef',
      parts(req({ headers: { Authorization: { secretRef: 'sk_live_abcdefghijklmnop', format: 'Bearer {value}' } } })),
      /secretRef looks like a credential/,
    ],
    [
      'a token pasted as the X-API-Key secretRef',
      parts(req({ headers: { 'X-API-Key': { secretRef: 'ghp_abcdefghijklmnopqrstuvwx12', format: '{value}' } } })),
      /secretRef looks like a credential/,
    ],
    ['token in the path', parts(req({ url: `https://${HOST}/v1/sk_live_abcdefghijklmnop/metric` })), /looks like it contains a credential/],
    ['backslash', parts(req({ url: `https://${HOST}\\v1` })), /backslashes/],
    ['malformed percent-encoding', parts(req({ url: `https://${HOST}/v1/%zz` })), /percent-encoding/],
    ['missing url', parts(req({ url: undefined })), /url is required/],
    ['missing request_config', parts(null), /request_config is required/],
    ['xml content type', parts(req(), ext({ contentType: 'xml' })), /contentType must be "json"/],
    ['pointer without slash', parts(req(), ext({ pointer: 'value' })), /RFC 6901/],
    ['pointer with bad escape', parts(req(), ext({ pointer: '/a~2b' })), /RFC 6901/],
    ['unknown numeric mode', parts(req(), ext({ numeric: { mode: 'ratio' } })), /mode must be "number" or "percentage"/],
    ['percentage without scale', parts(req(), ext({ numeric: { mode: 'percentage', percentageScale: null } })), /percentageScale must be 1/],
    ['percentage scale 10', parts(req(), ext({ numeric: { mode: 'percentage', percentageScale: 10 } })), /percentageScale must be 1/],
    ['number with a scale', parts(req(), ext({ numeric: { mode: 'number', percentageScale: 100 } })), /must be null when mode is "number"/],
    ['freshness unknown key', parts(req(), ext(), { ttl: 3 }), /freshness_config.ttl is not a known field/],
    ['maxAgeHours without pointer', parts(req(), ext(), { maxAgeHours: 3 }), /needs providerTimestampPointer/],
    ['maxAgeHours 0', parts(req(), ext(), { maxAgeHours: 0, providerTimestampPointer: '/t' }), /1 to 8760/],
  ])('%s', (_n, p, re) => problem(p, re));

  it('names every problem in one message', () => {
    problem(parts(req({ method: 'PUT', url: `http://${HOST}/x` }), ext({ pointer: 'x' })), /method must be GET.*https.*RFC 6901/);
  });

  it('normalizes a valid configuration and hashes its canonical form', () => {
    const c = validateSyncConfig(
      parts(
        req({
          method: 'get',
          url: `https://METRICS.example.com/v1/metric`,
          headers: { authorization: { secret_ref: 'TOKEN' }, 'x-api-key': { secretRef: 'KEY', format: '{value}' } },
        }),
        ext({ content_type: 'application/json', contentType: undefined, numeric: { mode: 'percentage', percentage_scale: 1 } }),
        { max_age_hours: 24, providerTimestampPointer: '/at' },
      ),
      ALLOW,
    );
    expect(c).toEqual({
      request_config: {
        method: 'GET',
        url: `https://${HOST}/v1/metric`,
        headers: { Authorization: { secretRef: 'TOKEN', format: 'Bearer {value}' }, 'X-API-Key': { secretRef: 'KEY', format: '{value}' } },
      },
      extraction_config: { contentType: 'json', pointer: '/value', numeric: { mode: 'percentage', percentageScale: 1 } },
      freshness_config: { maxAgeHours: 24, providerTimestampPointer: '/at' },
    });
    const h = configHash(c);
    expect(h).toMatch(/^sha256:[0-9a-f]{64}$/);
    // key order does not matter; any value change does
    const reordered = {
      freshness_config: c.freshness_config,
      extraction_config: { numeric: c.extraction_config.numeric, pointer: '/value', contentType: 'json' as const },
      request_config: c.request_config,
    };
    expect(configHash(reordered)).toBe(h);
    expect(configHash({ ...c, extraction_config: { ...c.extraction_config, pointer: '/other' } })).not.toBe(h);
  });
});

describe('checkAllowlistHost', () => {
  it.each([
    ['https://metrics.example.com', /scheme/],
    ['metrics.example.com:443', /port/],
    ['metrics.example.com/v1', /path/],
    ['*.example.com', /wildcards/],
    ['10.0.0.1', /IP address/],
    ['[::1]', /IP address/],
    ['::1', /IP address/],
    ['localhost', /public DNS hostname/],
    ['printer.local', /public DNS hostname/],
    ['db.internal', /public DNS hostname/],
    ['intranet', /fully qualified/],
    ['bad_label.example.com', /labels of letters/],
    ['-x.example.com', /labels of letters/],
    ['example.com.', /end with a dot/],
    ['', /DNS hostname/],
  ])('%s is refused', (host, re) => {
    const r = checkAllowlistHost(host);
    expect('problem' in r && r.problem).toMatch(re);
  });
  it('accepts exact hostnames, lowercased', () => {
    expect(checkAllowlistHost(' Metrics.Example.COM ')).toEqual({ host: 'metrics.example.com' });
    expect(checkAllowlistHost('xn--bcher-kva.example')).toEqual({ host: 'xn--bcher-kva.example' });
  });
});

describe('pointers, values and secrets', () => {
  const doc = { data: { value: 42, 'a/b': 1, 'm~n': 2, list: [10, 20] }, s: '12.5', bad: 'twelve' };
  it('evaluates RFC 6901 pointers on own members only', () => {
    expect(evaluatePointer(doc, '/data/value')).toBe(42);
    expect(evaluatePointer(doc, '/data/a~1b')).toBe(1);
    expect(evaluatePointer(doc, '/data/m~0n')).toBe(2);
    expect(evaluatePointer(doc, '/data/list/1')).toBe(20);
    expect(evaluatePointer(doc, '/data/list/01')).toBeUndefined();
    expect(evaluatePointer(doc, '/data/list/length')).toBeUndefined();
    expect(evaluatePointer(doc, '/data/constructor')).toBeUndefined();
    expect(evaluatePointer(doc, '/nope/x')).toBeUndefined();
    expect(evaluatePointer(7, '')).toBe(7);
    expect(isJsonPointer('')).toBe(true);
    expect(isJsonPointer('/a~')).toBe(false);
  });
  it('reads numbers and decimal strings only; scales percentages', () => {
    expect(numericValue(3.5)).toBe(3.5);
    expect(numericValue('12.5')).toBe(12.5);
    expect(numericValue('twelve')).toBeNull();
    expect(numericValue(true)).toBeNull();
    expect(numericValue(null)).toBeNull();
    expect(numericValue('')).toBeNull();
    expect(scaledValue(0.423, { mode: 'percentage', percentageScale: 1 })).toBe(42.3);
    expect(scaledValue(42.3, { mode: 'percentage', percentageScale: 100 })).toBe(42.3);
    expect(scaledValue(7, { mode: 'number', percentageScale: null })).toBe(7);
  });
  it('flags credential-looking values', () => {
    expect(looksLikeSecret('/v1/ghp_abcdefghijklmnopqrstuvwx12')).toBe(true);
    expect(looksLikeSecret('/v1/aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE')).toBe(true);
    expect(looksLikeSecret('/v1/metrics/2f1c2e7a-1b2c-4d5e-8f90-1234567890ab')).toBe(false);
    expect(looksLikeSecret('/v1/metric')).toBe(false);
  });
  it('seals secrets with AES-256-GCM bound to org, sync and name', () => {
    const key = new SecretBox('k'.repeat(40), SYNC_SECRETS_PURPOSE);
    const s = sealSecret(key, 'o', 's', 'TOKEN', 'hunter2');
    expect(s.ciphertext.toString('utf8')).not.toContain('hunter2');
    expect(openSecret(key, 'o', 's', 'TOKEN', s)).toBe('hunter2');
    expect(openSecret(key, 'o', 's', 'OTHER', s)).toBeNull();
    expect(openSecret(key, 'o2', 's', 'TOKEN', s)).toBeNull();
    expect(openSecret(new SecretBox('j'.repeat(40), SYNC_SECRETS_PURPOSE), 'o', 's', 'TOKEN', s)).toBeNull();
    expect(openSecret(key, 'o', 's', 'TOKEN', { ...s, ciphertext: Buffer.from('x') })).toBeNull();
  });
  it('schedule slots are UTC hour, day and ISO week', () => {
    const at = new Date('2026-11-26T13:45:10Z'); // a Thursday
    expect(recordedFor('hourly', at)).toBe('2026-11-26T13:00:00.000Z');
    expect(recordedFor('daily', at)).toBe('2026-11-26T00:00:00.000Z');
    expect(recordedFor('manual', at)).toBe('2026-11-26T00:00:00.000Z');
    expect(recordedFor('weekly', at)).toBe('2026-11-23T00:00:00.000Z');
    expect(recordedFor('weekly', new Date('2026-11-29T23:59:00Z'))).toBe('2026-11-23T00:00:00.000Z');
    expect(recordedFor('weekly', new Date('2026-11-30T00:00:00Z'))).toBe('2026-11-30T00:00:00.000Z');
  });
});
