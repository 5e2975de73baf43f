import { looksLikeSecret } from '../../common/http/sensitive-values';
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { checkDestinationUrl } from '../../common/egress/destination';
import { EgressError } from '../../common/egress/egress-error';
import { Errors } from '../../common/errors/domain-error';
import { alias } from '../../common/http/validation';

/**
 * The configuration rules of KPI HTTP syncs, as pure functions (no database, no network).
 *
 * - request_config `{ method: "GET", url, headers? }`: GET only; an absolute `https://` URL on the
 *   default port whose host is exactly on the organization's allowlist; no query string (not even
 *   a bare `?`), fragment, credentials or request body; header values are credential placeholders
 *   only: `Authorization: { secretRef, format: "Bearer {value}" }` or
 *   `X-API-Key: { secretRef, format: "{value}" }`; no other header.
 * - extraction_config `{ contentType: "json", pointer, numeric: { mode, percentageScale } }`:
 *   RFC 6901 pointer; `number` (percentageScale null) or `percentage` (percentageScale 1: the
 *   provider reports a fraction, 0.42 = 42 %; 100: it reports percent points).
 * - freshness_config `{ maxAgeHours?, providerTimestampPointer? }`: the pointer to the provider's
 *   own measurement time (ISO 8601 string or Unix seconds); with maxAgeHours a value older than
 *   that is refused (`stale_value`).
 * - config_hash = "sha256:" + hex SHA-256 of the RFC 8785 (JCS) canonical JSON of
 *   `{ request_config, extraction_config, freshness_config }` in their normalized form below.
 */

export const SYNC_SCHEDULES = ['manual', 'hourly', 'daily', 'weekly'] as const;
export type SyncSchedule = (typeof SYNC_SCHEDULES)[number];
export const SYNC_STATUSES = ['draft', 'published', 'disabled'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

export interface SecretHeader {
  secretRef: string;
  format: string;
}
export interface RequestConfig {
  method: 'GET';
  url: string;
  headers: Record<string, SecretHeader>;
}
export interface ExtractionConfig {
  contentType: 'json';
  pointer: string;
  numeric: { mode: 'number' | 'percentage'; percentageScale: 1 | 100 | null };
}
export interface FreshnessConfig {
  maxAgeHours?: number;
  providerTimestampPointer?: string;
}
export interface SyncConfig {
  request_config: RequestConfig;
  extraction_config: ExtractionConfig;
  freshness_config: FreshnessConfig;
}

/** Canonical header names and the one format each accepts. */
const SECRET_HEADERS: Record<string, { name: string; format: string }> = {
  authorization: { name: 'Authorization', format: 'Bearer {value}' },
  'x-api-key': { name: 'X-API-Key', format: '{value}' },
};
export const SECRET_REF_RE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** RFC 6901: "" or a sequence of "/" reference tokens where "~" is only "~0" or "~1". */
const POINTER_RE = /^(\/([^~/]|~[01])*)*$/;
const MAX_POINTER = 512;
const HOST_LABEL_RE = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export { looksLikeSecret };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Collects every problem of a body, so one 400 names them all. */
class Problems {
  readonly list: string[] = [];
  add(msg: string): void {
    this.list.push(msg);
  }
  get ok(): boolean {
    return this.list.length === 0;
  }
  throwIfAny(): void {
    if (!this.ok) throw Errors.validation(this.list.join('; '), { problems: this.list });
  }
}

function unknownKeys(p: Problems, where: string, obj: Record<string, unknown>, allowed: string[], hints: Record<string, string> = {}): void {
  for (const k of Object.keys(obj)) {
    if (allowed.includes(k)) continue;
    p.add(hints[k] ?? `${where}.${k} is not a known field (allowed: ${allowed.join(', ')})`);
  }
}

/** RFC 6901 syntax check. */
export const isJsonPointer = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_POINTER && POINTER_RE.test(v);

/**
 * An allowlist host: an exact DNS hostname (lowercased). No scheme, port, path, wildcard, IP
 * literal, localhost, single label, `.local`/`.localhost`/`.internal`/`.home.arpa`. Returns the
 * host or a problem text.
 */
export function checkAllowlistHost(raw: unknown): { host: string } | { problem: string } {
  if (typeof raw !== 'string' || !raw.trim()) return { problem: 'host must be a DNS hostname such as metrics.example.com' };
  const trimmed = raw.trim();
  // checked before lowercasing too (lowercasing never shortens a text; a long one is not worth converting)
  if (trimmed.length > 253) return { problem: 'host must be at most 253 characters' };
  const host = trimmed.toLowerCase();
  if (host.length > 253) return { problem: 'host must be at most 253 characters' };
  if (host.includes('://')) return { problem: 'host must not include a scheme (give metrics.example.com, not https://metrics.example.com)' };
  if (host.includes('*')) return { problem: 'host must be an exact hostname; wildcards are not allowed' };
  if (/[/?#@\\]/.test(host)) return { problem: 'host must not include a path, query, fragment or credentials' };
  if (host.includes('[') || (host.match(/:/g) ?? []).length > 1) return { problem: 'host must be a DNS hostname, not an IP address' };
  if (host.includes(':')) return { problem: 'host must not include a port' };
  if (host.endsWith('.')) return { problem: 'host must not end with a dot' };
  try {
    checkDestinationUrl(`https://${host}/`);
  } catch (e) {
    if (e instanceof EgressError) return { problem: e.message.replace(/^URL (host )?/, 'host ') };
    throw e;
  }
  const labels = host.split('.');
  if (!labels.every((l) => HOST_LABEL_RE.test(l)))
    return { problem: 'host must be a DNS hostname: labels of letters, digits and hyphens (IDN hosts in their xn-- form)' };
  if (/^\d+$/.test(labels[labels.length - 1])) return { problem: 'host must be a DNS hostname, not an IP address' };
  return { host };
}

function checkUrl(p: Problems, raw: unknown, allowlist: ReadonlySet<string>): string | undefined {
  if (typeof raw !== 'string' || !raw.trim()) {
    p.add('request_config.url is required: an https URL on an allowlisted host');
    return undefined;
  }
  const v = raw.trim();
  if (v.length > 2048) {
    p.add('request_config.url must be at most 2048 characters');
    return undefined;
  }
  // eslint-disable-next-line no-control-regex -- refuses control characters on purpose
  if (/[\s\\\u0000-\u001f\u007f]/.test(v)) {
    p.add('request_config.url must not contain whitespace, control characters or backslashes');
    return undefined;
  }
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    p.add('request_config.url is not a valid absolute URL');
    return undefined;
  }
  if (u.protocol !== 'https:') {
    p.add('request_config.url must use https');
    return undefined;
  }
  if (u.username || u.password || /^https:\/\/[^/]*@/i.test(v)) p.add('request_config.url must not contain credentials');
  if (v.includes('?')) p.add('request_config.url must not contain a query string; syncs send no query parameters');
  if (v.includes('#')) p.add('request_config.url must not contain a fragment');
  if (u.port !== '' || /^https:\/\/[^/]*:\d*(\/|$)/i.test(v.replace(/\[[^\]]*\]/, ''))) p.add('request_config.url must use the default https port (no :port)');
  try {
    checkDestinationUrl(u.href);
  } catch (e) {
    if (!(e instanceof EgressError)) throw e;
    p.add(`request_config.url ${e.message.replace(/^URL /, '')}`);
    return undefined;
  }
  const host = u.hostname.toLowerCase();
  if (!allowlist.has(host)) p.add(`request_config.url host ${host} is not on the organization's KPI HTTP sync allowlist (exact host match)`);
  let path: string | undefined;
  try {
    path = decodeURIComponent(u.pathname);
  } catch {
    p.add('request_config.url has a malformed percent-encoding in its path (% must be followed by two hex digits of valid UTF-8)');
  }
  if (path !== undefined && looksLikeSecret(path))
    p.add('request_config.url looks like it contains a credential; put secrets in a secret and reference it from a header');
  return `https://${host}${u.pathname}`;
}

function checkHeaders(p: Problems, raw: unknown): Record<string, SecretHeader> {
  const out: Record<string, SecretHeader> = {};
  if (raw === undefined || raw === null) return out;
  if (!isObj(raw)) {
    p.add('request_config.headers must be an object of header name → { secretRef, format }');
    return out;
  }
  for (const [name, value] of Object.entries(raw)) {
    const spec = SECRET_HEADERS[name.toLowerCase()];
    if (!spec) {
      p.add(`request_config.headers.${name} is not allowed: only Authorization (Bearer) and X-API-Key credential placeholders may be set`);
      continue;
    }
    if (out[spec.name]) {
      p.add(`request_config.headers.${spec.name} is given twice`);
      continue;
    }
    if (!isObj(value)) {
      p.add(
        `request_config.headers.${name} must be a placeholder { secretRef, format: "${spec.format}" }; inline secret values are not allowed (store the value with PUT …/secrets)`,
      );
      continue;
    }
    const extra = Object.keys(value).filter((k) => !['secretRef', 'secret_ref', 'format'].includes(k));
    if (extra.length) p.add(`request_config.headers.${name} has unknown fields ${extra.join(', ')} (allowed: secretRef, format)`);
    let ref: unknown;
    try {
      ref = alias(value, 'secretRef', 'secret_ref');
    } catch (e) {
      p.add((e as Error).message);
      continue;
    }
    if (typeof ref !== 'string' || !SECRET_REF_RE.test(ref)) {
      p.add(`request_config.headers.${name}.secretRef must be a secret name (a letter, then letters, digits or _; at most 64)`);
      continue;
    }
    if (looksLikeSecret(ref)) {
      p.add(
        `request_config.headers.${name}.secretRef looks like a credential value; give the NAME of a secret (e.g. API_TOKEN) and store the value with PUT …/secrets`,
      );
      continue;
    }
    const format = value.format ?? spec.format;
    if (format !== spec.format) {
      p.add(`request_config.headers.${name}.format must be "${spec.format}"`);
      continue;
    }
    out[spec.name] = { secretRef: ref, format: spec.format };
  }
  return out;
}

function checkRequest(p: Problems, raw: unknown, allowlist: ReadonlySet<string>): RequestConfig | undefined {
  if (!isObj(raw)) {
    p.add('request_config is required: { method: "GET", url, headers? }');
    return undefined;
  }
  unknownKeys(p, 'request_config', raw, ['method', 'url', 'headers'], {
    body: 'request_config.body is not allowed: syncs send no request body',
    data: 'request_config.data is not allowed: syncs send no request body',
    json: 'request_config.json is not allowed: syncs send no request body',
    query: 'request_config.query is not allowed: syncs send no query string',
    params: 'request_config.params is not allowed: syncs send no query string',
    followRedirects: 'request_config.followRedirects is not allowed: redirects are never followed',
    redirect: 'request_config.redirect is not allowed: redirects are never followed',
  });
  const method = raw.method ?? 'GET';
  if (typeof method !== 'string' || method.toUpperCase() !== 'GET') p.add('request_config.method must be GET (syncs only read)');
  const url = checkUrl(p, raw.url, allowlist);
  const headers = checkHeaders(p, raw.headers);
  return url ? { method: 'GET', url, headers } : undefined;
}

function checkExtraction(p: Problems, raw: unknown): ExtractionConfig | undefined {
  if (!isObj(raw)) {
    p.add('extraction_config is required: { contentType: "json", pointer, numeric: { mode, percentageScale } }');
    return undefined;
  }
  unknownKeys(p, 'extraction_config', raw, ['contentType', 'content_type', 'pointer', 'numeric']);
  let contentType: unknown;
  try {
    contentType = alias(raw, 'contentType', 'content_type') ?? 'json';
  } catch (e) {
    p.add((e as Error).message);
  }
  if (contentType !== undefined && contentType !== 'json' && contentType !== 'application/json')
    p.add('extraction_config.contentType must be "json" (only JSON responses are read)');
  const pointer = raw.pointer;
  if (!isJsonPointer(pointer)) p.add('extraction_config.pointer must be a JSON pointer (RFC 6901), e.g. "/data/value" ("~0" for ~, "~1" for /)');
  let numeric: ExtractionConfig['numeric'] | undefined;
  const n = raw.numeric ?? { mode: 'number' };
  if (!isObj(n)) p.add('extraction_config.numeric must be { mode: "number" | "percentage", percentageScale }');
  else {
    unknownKeys(p, 'extraction_config.numeric', n, ['mode', 'percentageScale', 'percentage_scale']);
    let scale: unknown;
    try {
      scale = alias(n, 'percentageScale', 'percentage_scale');
    } catch (e) {
      p.add((e as Error).message);
    }
    if (n.mode === 'number') {
      if (scale !== undefined && scale !== null) p.add('extraction_config.numeric.percentageScale must be null when mode is "number"');
      else numeric = { mode: 'number', percentageScale: null };
    } else if (n.mode === 'percentage') {
      if (scale !== 1 && scale !== 100)
        p.add('extraction_config.numeric.percentageScale must be 1 (the provider reports a fraction) or 100 (percent points) when mode is "percentage"');
      else numeric = { mode: 'percentage', percentageScale: scale };
    } else p.add('extraction_config.numeric.mode must be "number" or "percentage"');
  }
  return isJsonPointer(pointer) && numeric ? { contentType: 'json', pointer, numeric } : undefined;
}

function checkFreshness(p: Problems, raw: unknown): FreshnessConfig | undefined {
  if (raw === undefined || raw === null) return {};
  if (!isObj(raw)) {
    p.add('freshness_config must be an object { maxAgeHours?, providerTimestampPointer? }');
    return undefined;
  }
  unknownKeys(p, 'freshness_config', raw, ['maxAgeHours', 'max_age_hours', 'providerTimestampPointer', 'provider_timestamp_pointer']);
  const out: FreshnessConfig = {};
  let max: unknown;
  let ptr: unknown;
  try {
    max = alias(raw, 'maxAgeHours', 'max_age_hours');
    ptr = alias(raw, 'providerTimestampPointer', 'provider_timestamp_pointer');
  } catch (e) {
    p.add((e as Error).message);
    return undefined;
  }
  if (max !== undefined && max !== null) {
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > 8760) p.add('freshness_config.maxAgeHours must be an integer from 1 to 8760');
    else out.maxAgeHours = max;
  }
  if (ptr !== undefined && ptr !== null) {
    if (!isJsonPointer(ptr)) p.add('freshness_config.providerTimestampPointer must be a JSON pointer (RFC 6901)');
    else out.providerTimestampPointer = ptr;
  }
  if (out.maxAgeHours !== undefined && out.providerTimestampPointer === undefined)
    p.add('freshness_config.maxAgeHours needs providerTimestampPointer (the provider time it is measured against)');
  return out;
}

/** The three configuration objects of a body (the validation pipe has mapped their camelCase aliases). */
export function configParts(dto: { request_config?: unknown; extraction_config?: unknown; freshness_config?: unknown }): {
  request: unknown;
  extraction: unknown;
  freshness: unknown;
} {
  return { request: dto.request_config, extraction: dto.extraction_config, freshness: dto.freshness_config };
}

/** Validates and normalizes a whole configuration; every problem in one 400 (with `problems`). */
export function validateSyncConfig(parts: { request: unknown; extraction: unknown; freshness: unknown }, allowlist: ReadonlySet<string>): SyncConfig {
  const p = new Problems();
  const request_config = checkRequest(p, parts.request, allowlist);
  const extraction_config = checkExtraction(p, parts.extraction);
  const freshness_config = checkFreshness(p, parts.freshness);
  p.throwIfAny();
  return { request_config: request_config!, extraction_config: extraction_config!, freshness_config: freshness_config! };
}

/** "sha256:" + hex digest of the JCS (RFC 8785) form of the normalized configuration. */
export function configHash(c: SyncConfig): string {
  const text = canonicalize({ request_config: c.request_config, extraction_config: c.extraction_config, freshness_config: c.freshness_config })!;
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/** Secret names the configuration references. */
export const referencedSecrets = (c: Pick<SyncConfig, 'request_config'>): string[] =>
  [...new Set(Object.values(c.request_config.headers ?? {}).map((h) => h.secretRef))].sort();

export function checkName(raw: unknown, required: boolean): string | undefined {
  if (raw === undefined && !required) return undefined;
  if (typeof raw !== 'string' || !raw.trim()) throw Errors.validation('name is required: 1 to 200 characters');
  if (raw.trim().length > 200) throw Errors.validation('name must be at most 200 characters');
  return raw.trim();
}

export function checkSchedule(raw: unknown): SyncSchedule | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !(SYNC_SCHEDULES as readonly string[]).includes(raw))
    throw Errors.validation(`schedule must be one of ${SYNC_SCHEDULES.join(', ')}`);
  return raw as SyncSchedule;
}

/**
 * RFC 6901 evaluation over parsed JSON: own properties only (no prototype members such as
 * `constructor`), array indexes as canonical decimal numbers (no leading zeros, no `-`, no
 * `length`). `undefined` when the pointer names nothing. (Written here rather than taken from the
 * `jsonpointer` package, which walks inherited properties and non-index array members.)
 */
export function evaluatePointer(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  let cur: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      const i = Number(token);
      if (i >= cur.length) return undefined;
      cur = cur[i];
    } else if (isObj(cur)) {
      if (!Object.prototype.hasOwnProperty.call(cur, token)) return undefined;
      cur = cur[token];
    } else return undefined;
  }
  return cur;
}

const DECIMAL_RE = /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** A JSON number, or a string holding a plain decimal number; anything else is not numeric. */
export function numericValue(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.length <= 64 && DECIMAL_RE.test(v)) {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** The stored KPI value: numbers as they are; percentages in percent points (scale 1 → × 100). */
export function scaledValue(n: number, numeric: ExtractionConfig['numeric']): number {
  if (numeric.mode === 'percentage' && numeric.percentageScale === 1) return Number((n * 100).toPrecision(15));
  return n;
}
