import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { Errors } from '../../common/errors/domain-error';

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

/**
 * `s` without its code spans, in one pass: what `s.replace(/(`+)[^`][\s\S]*?\1/g, '')` gives (a run
 * of n backticks, at least one character, then the first later n backticks), without that
 * pattern's rescans, which were quadratic (about 9 s on 100 KB of backticks and letters).
 *
 * Like the pattern: an opener is the rest of a backtick run from the scan position, so when a run
 * of n finds no closer, its last n-1, n-2, … backticks are tried in turn; the closer is the start
 * of the first later run at least as long (it may be part of a longer run; the scan goes on after it).
 */
export function stripCodeSpans(s: string): string {
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) !== BACKTICK) continue;
    starts.push(i);
    while (i < s.length && s.charCodeAt(i) === BACKTICK) i++;
    ends.push(i);
  }
  // longestAfter[r]: the longest run among runs r, r+1, …
  const longestAfter = new Array<number>(starts.length + 1).fill(0);
  for (let r = starts.length - 1; r >= 0; r--) longestAfter[r] = Math.max(ends[r] - starts[r], longestAfter[r + 1]);
  let out = '';
  let copied = 0;
  let pos = 0;
  for (let r = 0; r < starts.length;) {
    const from = Math.max(starts[r], pos);
    const later = longestAfter[r + 1];
    if (later === 0) break; // no run after this one: nothing closes
    if (from >= ends[r]) {
      r++;
      continue;
    }
    // the first opener in this run that a later run can close (every later run starts after a non-backtick)
    const n = Math.min(ends[r] - from, later);
    let c = r + 1;
    while (ends[c] - starts[c] < n) c++;
    out += s.slice(copied, ends[r] - n);
    copied = pos = starts[c] + n;
    r = c;
  }
  return out + s.slice(copied);
}

/** Tags inside Markdown code (fences, `spans`) do not make a body HTML: "use `<div>`" stays Markdown. */
export const looksLikeHtml = (s: string): boolean => HTML_RE.test(stripCodeSpans(s.replace(CODE_FENCE_RE, '\n')));

/** Sanitized HTML of a Markdown/plain-text or HTML body ('' when nothing safe remains); over COMMENT_BODY_MAX characters: 400 before parsing. */
export function renderCommentBody(raw: string): string {
  checkedBody(raw, 'body');
  const html = looksLikeHtml(raw) ? raw : md.render(raw);
  return sanitizeHtml(html, SANITIZE).trim();
}

const INVISIBLE_RE = /&nbsp;|&#160;|&#xa0;|&#x200b;|&#8203;|[\s\u00a0\u200b-\u200d\u2060\ufeff]/gi;

/** A tag of sanitized HTML: the sanitizer escapes `<` and `>` everywhere else, attribute values included. */
const TAG_RE = /<[^<>]*>/g;
const IMG_WITH_SRC_RE = /<img\s[^<>]*src=/i;

/**
 * True when the sanitized HTML shows text or safe media: an image with a source, or text (outside
 * the tags) besides white space and invisible characters. One pass over the sanitizer's output
 * (its text is already decoded and escaped once, so a second sanitizer pass would return it as is).
 */
export function hasVisibleContent(html: string): boolean {
  if (IMG_WITH_SRC_RE.test(html)) return true;
  return html.replace(TAG_RE, '').replace(INVISIBLE_RE, '').length > 0;
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
