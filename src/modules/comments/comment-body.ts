import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { DomainError, Errors } from '../../common/errors/domain-error';

/** Raw comment bodies longer than this are rejected (400). */
export const COMMENT_BODY_MAX = 100_000;

const md = new MarkdownIt({ html: false, linkify: true, breaks: true });

const LINK_SCHEME_RE = /^(https?:|mailto:)/i;
const IMG_SCHEME_RE = /^https?:/i;

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'em',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'hr',
    'del',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'img',
  ],
  allowedAttributes: { a: ['href', 'rel'], img: ['src', 'alt'], th: ['colspan', 'rowspan'], td: ['colspan', 'rowspan'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowedStyles: {},
  disallowedTagsMode: 'discard',
  // Elements whose content is dropped with them (never shown as text).
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'iframe',
    'object',
    'embed',
    'template',
    'svg',
    'math',
    'xmp',
    'noembed',
    'noframes',
    'title',
    'head',
    'select',
  ],
  transformTags: {
    b: 'strong',
    i: 'em',
    s: 'del',
    strike: 'del',
    h7: 'p',
    a: (tagName, attribs) => {
      const href = (attribs.href ?? '').trim();
      const out: Record<string, string> = {};
      if (LINK_SCHEME_RE.test(href)) {
        out.href = href;
        out.rel = 'noopener noreferrer nofollow';
      }
      return { tagName, attribs: out };
    },
    img: (tagName, attribs) => {
      const src = (attribs.src ?? '').trim();
      const out: Record<string, string> = {};
      if (IMG_SCHEME_RE.test(src)) out.src = src;
      if (typeof attribs.alt === 'string') out.alt = attribs.alt;
      return { tagName, attribs: out };
    },
  },
  // An image without a safe source is dropped entirely.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

/** Looks like rich-text HTML (an opening or closing tag, or a comment) rather than Markdown/plain text. */
const HTML_RE = /<\/?[a-z][a-z0-9-]*(\s[^<>]*)?\/?>|<!--/i;
const CODE_FENCE_RE = /(^|\n)(```|~~~)[^\n]*\n[\s\S]*?(\n\2[^\n]*(?=\n|$)|$)/g;

const BACKTICK = 0x60;

/** The string of the first `length` UTF-16 code units in `units` (in chunks: call arguments are limited). */
function unitsToString(units: Uint16Array, length: number): string {
  const parts: string[] = [];
  for (let i = 0; i < length; i += 8192) parts.push(String.fromCharCode.apply(null, units.subarray(i, Math.min(length, i + 8192)) as unknown as number[]));
  return parts.join('');
}

/**
 * `s` without its code spans, in linear time: what `s.replace(/(`+)[^`][\s\S]*?\1/g, '')` gives (a
 * run of n backticks, at least one character, then the first later n backticks), without that
 * pattern's rescans, which were quadratic (about 9 s on 100 KB of backticks and letters).
 *
 * Like the pattern: an opener is the rest of a backtick run from the scan position, so when a run
 * of n finds no closer, its last n-1, n-2, … backticks are tried in turn; the closer is the start
 * of the first later run at least as long (it may be part of a longer run; the scan goes on after it).
 */
export function stripCodeSpans(s: string): string {
  // (no Math.max/min in the loops: a global lookup per step is slow where globals are proxied, as in Jest)
  if (!s.includes('`')) return s;
  const len = s.length;
  let count = 0;
  for (let i = 0; i < len; i++) if (s.charCodeAt(i) === BACKTICK && s.charCodeAt(i - 1) !== BACKTICK) count++;
  // the maximal backtick runs [starts[r], ends[r]), and the longest among runs r, r+1, …
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  for (let i = 0, r = 0; i < len; i++) {
    if (s.charCodeAt(i) !== BACKTICK) continue;
    starts[r] = i;
    while (i < len && s.charCodeAt(i) === BACKTICK) i++;
    ends[r++] = i;
  }
  const longestAfter = new Int32Array(count + 1);
  for (let r = count - 1; r >= 0; r--) longestAfter[r] = ends[r] - starts[r] > longestAfter[r + 1] ? ends[r] - starts[r] : longestAfter[r + 1];
  const kept = new Uint16Array(len);
  let length = 0;
  let copied = 0;
  const keepUpTo = (end: number) => {
    for (; copied < end; copied++) kept[length++] = s.charCodeAt(copied);
  };
  for (let r = 0, pos = 0; r < count && longestAfter[r + 1] > 0;) {
    const from = starts[r] > pos ? starts[r] : pos;
    if (from >= ends[r]) {
      r++;
      continue;
    }
    // the first opener in this run that a later run can close (every later run starts after a non-backtick)
    const n = ends[r] - from < longestAfter[r + 1] ? ends[r] - from : longestAfter[r + 1];
    let c = r + 1;
    while (ends[c] - starts[c] < n) c++;
    keepUpTo(ends[r] - n);
    copied = pos = starts[c] + n;
    r = c;
  }
  if (copied === 0) return s; // no span
  keepUpTo(len);
  return unitsToString(kept, length);
}

/** Tags inside Markdown code (fences, `spans`) do not make a body HTML: "use `<div>`" stays Markdown. */
export const looksLikeHtml = (s: string): boolean =>
  s.includes('<') && HTML_RE.test(stripCodeSpans(s.includes('```') || s.includes('~~~') ? s.replace(CODE_FENCE_RE, '\n') : s));

/** Sanitized HTML of a Markdown/plain-text or HTML body ('' when nothing safe remains); over COMMENT_BODY_MAX characters: 400 before parsing. */
export function renderCommentBody(raw: string): string {
  checkedBody(raw, 'body');
  const html = looksLikeHtml(raw) ? raw : md.render(raw);
  return sanitizeHtml(html, SANITIZE).trim();
}

/**
 * The comment sanitizer's rules for other rich-text documents (artifact revisions): `markdown` is
 * rendered first, `html` is sanitized as given. No length check here: the caller bounds `raw`.
 */
export function sanitizeRichText(raw: string, format: 'markdown' | 'html'): string {
  return sanitizeHtml(format === 'html' ? raw : md.render(raw), SANITIZE).trim();
}

const INVISIBLE_ENTITY_RE = /&nbsp;|&#160;|&#xa0;|&#x200b;|&#8203;/gi;
const VISIBLE_CHAR_RE = /[^\s\u00a0\u200b-\u200d\u2060\ufeff]/;

/** A tag of sanitized HTML: the sanitizer escapes `<` and `>` everywhere else, attribute values included. */
const TAG_RE = /<[^<>]*>/g;
const IMG_WITH_SRC_RE = /<img\s[^<>]*src=/i;

/**
 * True when the sanitized HTML shows text or safe media: an image with a source, or text (outside
 * the tags) besides white space, invisible characters and their entities. Linear passes over the
 * sanitizer's output (its text is already decoded and escaped once, so a second sanitizer pass
 * would return it as is); the last one stops at the first visible character.
 */
export function hasVisibleContent(html: string): boolean {
  if (IMG_WITH_SRC_RE.test(html)) return true;
  return VISIBLE_CHAR_RE.test(html.replace(TAG_RE, '').replace(INVISIBLE_ENTITY_RE, ''));
}

/** `raw` as a body of at most COMMENT_BODY_MAX characters, checked before any parsing; `field` names it in errors. */
function checkedBody(raw: unknown, field: string): string {
  if (raw === undefined || raw === null) throw Errors.validation(`${field} is required`);
  if (typeof raw !== 'string') throw Errors.validation(`${field} must be a string`);
  if (raw.length > COMMENT_BODY_MAX) throw Errors.validation(`${field} must be at most ${COMMENT_BODY_MAX} characters`);
  return raw;
}

/** Validates and sanitizes a comment body; `field` names it in errors (`body`, `comment_body`). */
export function cleanCommentBody(raw: unknown, field = 'body'): string {
  const html = renderCommentBody(checkedBody(raw, field));
  if (!hasVisibleContent(html)) throw Errors.validation(`${field} is required`);
  return html;
}

/**
 * A comment body validated and rendered before the transaction that stores it opens, so that no
 * database connection or row lock is held while a long body is parsed. A body that fails keeps its
 * 400, thrown where the comment is written, so errors come in the same order as before.
 */
export class PreparedCommentBody {
  private constructor(
    private readonly html: string,
    private readonly error: DomainError | null,
  ) {}

  /** Validates and renders `raw` now; `field` names it in errors (`body`, `comment_body`). */
  static of(raw: unknown, field = 'body'): PreparedCommentBody {
    try {
      return new PreparedCommentBody(cleanCommentBody(raw, field), null);
    } catch (e) {
      if (e instanceof DomainError) return new PreparedCommentBody('', e);
      throw e;
    }
  }

  /** The sanitized HTML, or the body's 400. */
  value(): string {
    if (this.error) throw this.error;
    return this.html;
  }
}
