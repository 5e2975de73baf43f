/**
 * Adversarial text: inputs that make naive parsers (backtracking regular expressions, rescans
 * from every position, unbounded nesting) quadratic or worse. One place for every test that
 * feeds user text to a parser (test/integration/text-parsers-dos.spec.ts).
 *
 * Each input is built at `size` UTF-16 code units (default 1 MiB = 1,048,576) by repeating a
 * unit, or by a shape that needs the whole length (one long run, increasing runs, ...). Inputs are
 * built on demand (`build()`), so a test holds one at a time rather than the whole corpus.
 */

/** The default size: 1 MiB (1,048,576 code units). */
export const MIB = 1 << 20;

export interface AdversarialInput {
  name: string;
  /** The text (built anew on every call). */
  build: () => string;
}

const fill = (unit: string, size: number): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

/** `size` characters: `head`, then `unit` repeated, then `tail` (the tail survives, so a trailing decision is forced). */
const framed = (head: string, unit: string, tail: string, size: number): string => head + fill(unit, Math.max(0, size - head.length - tail.length)) + tail;

/** Runs of `ch` of lengths 1, 2, 3, … separated by `sep` (every run is new: nothing closes it). */
function increasingRuns(ch: string, sep: string, size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let k = 1; length < size; k++) {
    parts.push(ch.repeat(k), sep);
    length += k + sep.length;
  }
  return parts.join('').slice(0, size);
}

/** Runs of `ch` of lengths m, m-1, …, 1 separated by `sep` (every run finds only shorter ones after it). */
function decreasingRuns(ch: string, sep: string, size: number): string {
  let m = 1;
  while ((m * (m + 1)) / 2 + m * sep.length < size) m++;
  const parts: string[] = [];
  for (let k = m; k >= 1; k--) parts.push(ch.repeat(k), sep);
  return parts.join('').slice(0, size);
}

/** Repeated units, by family. Each becomes one input `<family>: <unit>` (control characters shown escaped). */
const REPEATED: Record<string, string[]> = {
  backticks: ['`', '`a', '``a', '```a', 'a`', '`a`', '``a`', '`a``', '` ', '`\n', '```\n', '~~~\n', '\n```', '```\na', '\n~~~a', '`<b>', '``<div>`'],
  brackets: ['[', '(', '[]', '[](', '![', '![](', '[a](', '](', '[a]', '[a]:', '[^', '{', '<', '<>', ')', ']'],
  emphasis: ['*', '**', '*a', '**a', '_', '_a', '__a', '*_', '_*', '~', '~~', '~~a', '=', '==a', '+', '^'],
  punctuation: [
    '&',
    '#',
    '# ',
    '>',
    '> ',
    '|',
    '|a',
    '|-',
    '\\',
    '\\`',
    '\\\\',
    '-',
    '- ',
    '-a',
    '.',
    ',',
    ',a',
    '%',
    '"',
    "'",
    '!',
    '/',
    '/~',
    '~0~1',
    ':',
    ';',
    '?',
    '=',
  ],
  whitespace: [' ', '\t', '\n', '\r\n', ' \n', 'a\n', '  - ', '    ', '\u00a0', '\u200b'],
  mentions: ['@', '@a', 'a@', '@a.', 'a@a.', '@@a', '@-', '@_'],
  html: [
    '<a',
    '<a ',
    '<a<',
    '</',
    '</a',
    '<a href="',
    '<a href=',
    '<img ',
    '<img src=',
    '<img\n',
    '<!--',
    '<!-',
    '-->',
    '<?',
    '<!',
    '<![CDATA[',
    '<script>',
    '<b><i>',
    '<a\t',
    '<div ',
    '<p>a',
    'a>',
  ],
  entities: ['&amp;', '&amp', '&#', '&#1', '&#x', '&#xa0;', '&nbsp;', '&#160;', '&lt;', '&a', '&;'],
  links: ['http://', 'https://a.', 'www.', 'www.a.', 'a.com ', 'mailto:', 'http://a/(', 'a.b.c.', '://', 'h:'],
  tokens: ['sk-', 'sk_live_', 'ghp_', 'AIza', 'xoxb-', 'a1B2', 'A-1', '#1', '1', 'a', 'A', 'a ', 'aA1-_'],
  unicode: ['é', 'e\u0301', '\u0301', '😀', '\ud83d', '\ufdfa', '\ufb03', '\u202e', 'İ', 'ß', '\u0000', '\ufffd', '日本'],
};

const show = (unit: string): string => JSON.stringify(unit).slice(1, -1);

/** The whole corpus at `size` code units per input. */
export function adversarialInputs(size = MIB): AdversarialInput[] {
  const out: AdversarialInput[] = [];
  for (const [family, units] of Object.entries(REPEATED)) {
    for (const unit of units) out.push({ name: `${family}: ${show(unit)}`, build: () => fill(unit, size) });
  }
  const shaped: Array<[string, () => string]> = [
    ['backticks: one run, then a letter', () => framed('', '`', 'a', size)],
    ['backticks: a letter, then one run', () => framed('a', '`', '', size)],
    ['backticks: increasing runs', () => increasingRuns('`', 'a', size)],
    ['backticks: decreasing runs', () => decreasingRuns('`', 'a', size)],
    ['backticks: decreasing runs, newlines', () => decreasingRuns('`', '\n', size)],
    ['backticks: unclosed fence, then text', () => framed('```\n', 'a', '', size)],
    ['backticks: fence line without newline', () => framed('```', 'a', '', size)],
    ['brackets: nested [ then ]', () => fill('[', size / 2) + fill(']', size / 2)],
    ['brackets: nested ( then )', () => fill('(', size / 2) + fill(')', size / 2)],
    ['brackets: link text then unclosed target', () => framed('[a](', 'a', '', size)],
    ['emphasis: increasing * runs', () => increasingRuns('*', 'a', size)],
    ['emphasis: increasing _ runs', () => increasingRuns('_', 'a', size)],
    ['emphasis: decreasing * runs', () => decreasingRuns('*', ' ', size)],
    ['emphasis: increasing ~ runs', () => increasingRuns('~', 'a', size)],
    ['punctuation: increasing # runs', () => increasingRuns('#', '\n', size)],
    ['punctuation: > nesting then text', () => fill('>', size / 2) + fill('a', size / 2)],
    ['punctuation: list nesting', () => increasingRuns(' ', '- a\n', size)],
    ['punctuation: dashes then a letter', () => framed('', '-', 'a', size)],
    ['punctuation: table', () => framed('|a|b|\n|-|-|\n', '|a|b|\n', '', size)],
    ['whitespace: spaces then a letter', () => framed('', ' ', 'a', size)],
    ['whitespace: a letter, spaces, a letter', () => framed('a', ' ', 'a', size)],
    ['whitespace: newlines then a letter', () => framed('', '\n', 'a', size)],
    ['mentions: one long handle', () => framed('@', 'a', '', size)],
    ['mentions: long handle then punctuation', () => framed('@', 'a', '!', size)],
    ['html: one open tag, long attribute text', () => framed('<a ', 'a', '', size)],
    ['html: one open tag, long attribute value', () => framed('<a href="', 'a', '', size)],
    ['html: img without end', () => framed('<img ', 'a', '', size)],
    ['html: long tag name', () => framed('<', 'a', '', size)],
    ['html: unclosed comment', () => framed('<!--', 'a', '', size)],
    ['html: deep nesting', () => fill('<b>', size / 2) + fill('</b>', size / 2)],
    ['links: long URL', () => framed('https://', 'a', '', size)],
    ['links: long host labels', () => framed('https://', 'a.', '', size)],
    ['entities: & then a long name', () => framed('&', 'a', '', size)],
    ['tokens: long secret-looking word', () => framed('sk-', 'aB1', '', size)],
    ['tokens: digits then a letter', () => framed('', '1', 'a', size)],
    ['unicode: emoji then a lone surrogate', () => framed('', '😀', '\ud83d', size)],
  ];
  for (const [name, build] of shaped) out.push({ name, build });
  return out;
}
