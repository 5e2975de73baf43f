import { sanitizeRichText } from '../comments/comment-body';
import { HTML_BODY_MAX, TEXT_BODY_MAX } from './inbox.constants';

const ANGLE_ADDRESS = /<([^<>\s]+@[^<>\s]+)>/;
const BARE_ADDRESS = /^[^\s@<>(),;:"]{1,64}@[A-Za-z0-9.-]{1,253}$/;

/** `"Name" <a@b.c>` or `a@b.c` → lowercased address and display name (null when not an address). */
export function parseAddress(v: unknown): { address: string; name: string | null } | null {
  if (typeof v !== 'string' || v.length > 1000) return null;
  const angle = ANGLE_ADDRESS.exec(v);
  const address = (angle ? angle[1] : v.trim()).toLowerCase();
  if (!BARE_ADDRESS.test(address)) return null;
  const name = angle
    ? v
        .slice(0, angle.index)
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .trim()
    : '';
  return { address, name: name ? name.slice(0, 200) : null };
}

/** The addresses of a recipient list (a string or an array of strings), at most 100. */
export function addressList(v: unknown): string[] {
  const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [];
  return items
    .slice(0, 100)
    .map(parseAddress)
    .filter((a): a is { address: string; name: string | null } => a !== null)
    .map((a) => a.address);
}

/** The first configured mailbox among the recipients, looking at To, then CC, then BCC. */
export function matchMailbox(lists: string[][], mailboxes: readonly { address: string; orgId: string }[]): { address: string; orgId: string } | null {
  for (const list of lists) {
    for (const address of list) {
      const hit = mailboxes.find((mb) => mb.address === address);
      if (hit) return hit;
    }
  }
  return null;
}

const IMG_TAG = /<img\b[^<>]*>/gi;

/**
 * The HTML body as stored: the comment sanitizer's rules (no script, style, event handlers,
 * javascript: URLs…) and then no images at all (remote images are tracking beacons; the
 * sanitizer's output escapes every `<` outside its tags, so removing whole tags is exact).
 */
export function sanitizeEmailHtml(v: unknown): string | null {
  if (typeof v !== 'string' || v.trim() === '') return null;
  const html = sanitizeRichText(v.slice(0, HTML_BODY_MAX), 'html').replace(IMG_TAG, '').trim();
  return html === '' ? null : html;
}

/** Plain text body, bounded. */
export const textBody = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v.slice(0, TEXT_BODY_MAX) : null);

/** A safe file name: the last path segment, no control characters, at most 255 characters. */
export function safeFileName(v: unknown): string {
  const raw = typeof v === 'string' ? v : '';
  const base = raw.split(/[\\/]/).pop() ?? '';
  const printable = [...base].filter((ch) => ch.charCodeAt(0) > 0x1f && ch !== '\u007f').join('');
  const clean = printable.trim().slice(0, 255);
  return clean === '' || clean === '.' || clean === '..' ? 'attachment' : clean;
}

/** A media type `type/subtype` (lowercased), else `application/octet-stream`. */
export function safeContentType(v: unknown): string {
  const t = typeof v === 'string' ? v.split(';')[0].trim().toLowerCase() : '';
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(t) ? t : 'application/octet-stream';
}

/** Strict standard base64 (what providers send), else null. */
export function decodeBase64(v: unknown): Buffer | null {
  if (typeof v !== 'string') return null;
  const s = v.replace(/\s+/g, '');
  if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) return null;
  return Buffer.from(s, 'base64');
}
