import { createHmac, timingSafeEqual } from 'node:crypto';

/** A canonical GitHub pull-request URL, parsed. */
export interface PrRef {
  owner: string;
  repo: string;
  number: number;
  /** `https://github.com/<owner>/<repo>/pull/<number>` */
  url: string;
}

// GitHub's own name rules: owners are alphanumerics and single hyphens (at most 39), repositories
// alphanumerics, `-`, `_`, `.` (at most 100, not `.` or `..`).
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Only `https://github.com/<owner>/<repo>/pull/<number>` (optionally `www.`, a trailing slash, or
 * one of the PR's own tabs `/files`, `/commits`, `/checks`; a query or fragment is dropped) is a
 * pull-request URL. Anything else (issues, commits, other hosts, look-alike hosts, credentials,
 * ports, non-numeric numbers) is null.
 */
export function parsePrUrl(raw: unknown): PrRef | null {
  if (typeof raw !== 'string' || raw.length > 2048) return null;
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' || u.username || u.password || u.port) return null;
  const host = u.hostname.toLowerCase();
  if (host !== 'github.com' && host !== 'www.github.com') return null;
  const parts = u.pathname.split('/').filter((p, i, all) => p !== '' || i < all.length - 1);
  // ['', owner, repo, 'pull', number, tab?]
  if (parts[0] !== '' || parts.length < 5 || parts.length > 6) return null;
  const [, owner, repo, kind, num, tab] = parts;
  if (kind !== 'pull' || !OWNER.test(owner) || !REPO.test(repo) || repo === '.' || repo === '..') return null;
  if (!/^[1-9][0-9]{0,9}$/.test(num) || Number(num) > 2_147_483_647) return null;
  if (tab !== undefined && !['files', 'commits', 'checks'].includes(tab)) return null;
  const number = Number(num);
  return { owner, repo, number, url: `https://github.com/${owner}/${repo}/pull/${number}` };
}

/** `owner/repo` in lower case: the key observations and links are matched on. */
export const repoKey = (owner: string, repo: string): string => `${owner}/${repo}`.toLowerCase();

/**
 * Verifies GitHub's `X-Hub-Signature-256` (`sha256=<hex HMAC-SHA256 of the raw body>`) in
 * constant time: the expected and received digests are compared as equal-length buffers; a
 * missing, malformed or wrong-length header is false without comparing.
 */
export function verifyGithubSignature(secret: string, rawBody: Buffer, header: unknown): boolean {
  if (typeof header !== 'string' || !/^sha256=[0-9a-fA-F]{64}$/.test(header)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const received = Buffer.from(header.slice(7), 'hex');
  return received.length === expected.length && timingSafeEqual(expected, received);
}

export const SHA40 = /^[0-9a-f]{40}$/;
