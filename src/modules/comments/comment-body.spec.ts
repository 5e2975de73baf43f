import sanitizeHtml from 'sanitize-html';
import { DomainError } from '../../common/errors/domain-error';
import { cleanCommentBody, COMMENT_BODY_MAX, hasVisibleContent, looksLikeHtml, PreparedCommentBody, renderCommentBody, stripCodeSpans } from './comment-body';

/**
 * How a comment body is read: HTML or Markdown (tags inside Markdown code do not count), then
 * sanitized. These cases pin the behaviour of the code-span and code-fence rules.
 */
describe('looksLikeHtml: tags inside Markdown code do not make a body HTML', () => {
  it.each([
    ['a tag', 'use <div> here', true],
    ['a closing tag', 'x </p>', true],
    ['a self-closing tag', 'a <br/> b', true],
    ['a tag with attributes', '<a href="x">y</a>', true],
    ['an HTML comment', 'x <!-- y', true],
    ['no tag', 'a < b and c > d', false],
    ['plain text', 'hello', false],
    ['an empty body', '', false],
    ['a tag in a code span', 'use `<div>` here', false],
    ['a tag in a double-backtick span', '``<b>`` text', false],
    ['a comment in a code span', '`<!--`', false],
    ['a span over several lines', '`a\n<b>\nc`', false],
    ['a span of one space', '` `<b>', true],
    ['an unclosed span', '`<b>', true],
    ['an unclosed span after text', 'a`<b>', true],
    ['a span closed by the start of a longer run', '`<b>``', false],
    ['a longer opener without a closer: the inner backtick opens', '``<b>`', false],
    ['a longer opener, closed inside it: the rest stays', '``a` <b>`', true],
    ['a single opener closed by part of a double run', '`a``<b>``', false],
    ['three backticks without a closer, no newline', '```<div>', true],
    ['a span closed by three backticks', 'a ```\n<b>\n```', false],
    ['an indented fence (read as a span)', ' ```\n<b>\n```', false],
    ['a closed fence', '```\n<div>\n```', false],
    ['a tilde fence with an info string', '~~~js\n<div>\n~~~', false],
    ['an unclosed fence runs to the end', '```\n<div>', false],
    ['a fence closed by the other marker is unclosed', '```\n<b>\n~~~\n', false],
    ['text after the closing line of a fence', '```\ncode\n```\n<div>x</div>', true],
    ['the closing line of a fence is dropped with it', '```\n<b>\n```js <i>\nrest', false],
    ['a fence after a stray backtick', '`\n```\n<b>\n```', false],
    ['a fence after text', 'text\n```\n<b>\n```\nafter', false],
    ['a tag after a fence and a span', '```\n<b>\n```\n`<i>` <p>', true],
    ['two spans, tag between', '`a` <b> `c`', true],
    ['two spans, tag inside the second', '`a` x `<b>`', false],
  ])('%s', (_name, body, html) => expect(looksLikeHtml(body)).toBe(html));
});

describe('stripCodeSpans: the code-span pattern it replaces, without its rescans', () => {
  // The pattern comment bodies used before (quadratic on long backtick runs); fine on these short inputs.
  const LEGACY_CODE_SPAN_RE = /(`+)[^`][\s\S]*?\1/g;
  const legacy = (s: string) => s.replace(LEGACY_CODE_SPAN_RE, '');

  it.each([
    ['no backticks', 'plain <b> text'],
    ['one span', 'a `b` c'],
    ['an unclosed span', 'a `b c'],
    ['a closer inside a longer run', '`a``b'],
    ['a longer opener without a closer', '``a`b`'],
    ['runs at the end', 'a``'],
    ['only backticks', '`````'],
    ['an empty span', '``'],
    ['a span over lines', '`a\nb`\n`c'],
    ['decreasing runs', '```a``a`a'],
    ['increasing runs', '`a``a```a'],
    ['a match that ends inside a run', '`a```b`'],
  ])('%s', (_name, s) => expect(stripCodeSpans(s)).toBe(legacy(s)));

  it('gives what the pattern gives on 20,000 generated bodies', () => {
    const pieces = ['`', '``', '```', 'a', ' ', '\n', '<b>', '~~~', 'x', '````'];
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let i = 0; i < 20_000; i++) {
      let s = '';
      const n = Math.floor(random() * 30);
      for (let j = 0; j < n; j++) s += pieces[Math.floor(random() * pieces.length)];
      expect([s, stripCodeSpans(s)]).toEqual([s, legacy(s)]);
    }
  });
});

describe('renderCommentBody', () => {
  it('renders Markdown with a code span', () => {
    expect(renderCommentBody('use `<div>` **now**')).toBe('<p>use <code>&lt;div&gt;</code> <strong>now</strong></p>');
  });
  it('renders a fenced block', () => {
    expect(renderCommentBody('```\n<b>x</b>\n```')).toBe('<pre><code>&lt;b&gt;x&lt;/b&gt;\n</code></pre>');
  });
  it('keeps HTML bodies as HTML (backticks stay text)', () => {
    expect(renderCommentBody('<b>x</b> `y`')).toBe('<strong>x</strong> `y`');
  });
  it('drops scripts and unsafe links', () => {
    expect(renderCommentBody('<p>a<script>alert(1)</script><a href="javascript:x">b</a></p>')).toBe('<p>a<a>b</a></p>');
  });
});

describe('hasVisibleContent', () => {
  it.each([
    ['text', '<p>a</p>', true],
    ['an image with a source', '<img src="https://x/y.png" />', true],
    ['only spaces and entities', '<p>&nbsp; &#160;\u200b</p>', false],
    ['nothing', '', false],
  ])('%s', (_name, html, visible) => expect(hasVisibleContent(html)).toBe(visible));
});

describe('hasVisibleContent: one pass over the sanitized HTML, as the second sanitizer pass it replaces', () => {
  const LEGACY_INVISIBLE_RE = /&nbsp;|&#160;|&#xa0;|&#x200b;|&#8203;|[\s\u00a0\u200b-\u200d\u2060\ufeff]/gi;
  const legacy = (html: string) =>
    /<img\s[^>]*src=/i.test(html) || sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(LEGACY_INVISIBLE_RE, '').length > 0;

  it('gives what the sanitizer pass gives on 5,000 generated bodies', () => {
    const pieces = [
      'a',
      ' ',
      '\n',
      '\t',
      '&nbsp;',
      '\u00a0',
      '\u200b',
      '\ufeff',
      '&#160;',
      '&#x200b;',
      '&amp;',
      '&lt;',
      '<p>',
      '</p>',
      '<b>',
      '<br>',
      '<img src="https://x/y.png">',
      '<img alt="x">',
      '<img src="javascript:x">',
      '![a](https://x/y.png)',
      '![a](javascript:x)',
      '<script>x</script>',
      '<style>p{}</style>',
      '<!-- c -->',
      '<a href="javascript:x">',
      '<a href="https://x">',
      '</a>',
      '[l](http://x)',
      '**',
      '`',
      '> ',
      '- ',
      '<',
      '>',
    ];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    let visible = 0;
    for (let i = 0; i < 5_000; i++) {
      let body = '';
      const n = 1 + Math.floor(random() * 8);
      for (let j = 0; j < n; j++) body += pieces[Math.floor(random() * pieces.length)];
      const html = renderCommentBody(body);
      expect([body, html, hasVisibleContent(html)]).toEqual([body, html, legacy(html)]);
      if (legacy(html)) visible++;
    }
    // both answers are well represented
    expect(visible).toBeGreaterThan(500);
    expect(visible).toBeLessThan(4_500);
  });
});

describe('cleanCommentBody', () => {
  const rejects = (raw: unknown, message: RegExp) => {
    let err: unknown;
    try {
      cleanCommentBody(raw);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).status).toBe(400);
    expect((err as DomainError).message).toMatch(message);
  };
  it('rejects a missing, non-string, too long or empty body', () => {
    rejects(undefined, /body is required/);
    rejects(42, /body must be a string/);
    rejects('a'.repeat(COMMENT_BODY_MAX + 1), /at most 100000 characters/);
    rejects('<script>x</script>', /body is required/);
  });
  it('accepts the longest body', () => {
    expect(cleanCommentBody('a'.repeat(COMMENT_BODY_MAX))).toBe(`<p>${'a'.repeat(COMMENT_BODY_MAX)}</p>`);
  });
});

describe('PreparedCommentBody: rendered ahead of the transaction, its 400 kept for later', () => {
  it('gives the sanitized HTML of a valid body', () => {
    expect(PreparedCommentBody.of('**a**').value()).toBe('<p><strong>a</strong></p>');
  });
  it('keeps the 400 of an invalid body, named by its field, until the value is asked for', () => {
    const prepared = PreparedCommentBody.of('   ', 'comment_body');
    expect(() => prepared.value()).toThrow(DomainError);
    expect(() => prepared.value()).toThrow('comment_body is required');
    expect(() => PreparedCommentBody.of('a'.repeat(COMMENT_BODY_MAX + 1)).value()).toThrow('body must be at most 100000 characters');
  });
});
