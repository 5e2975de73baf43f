import { DomainError } from '../../common/errors/domain-error';
import { issueNumberInQuery, likePattern, parseIssueListParams, parseIssueSearchParams, parseStatuses } from './list-params';

const rejects = (query: Record<string, unknown>, message: RegExp) => {
  let err: unknown;
  try {
    parseIssueListParams(query);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).status).toBe(400);
  expect((err as DomainError).message).toMatch(message);
};

describe('issue list filters', () => {
  it('reads comma-separated values: trimmed, blanks dropped, repeats once', () => {
    expect(parseStatuses(' todo, ,done,,todo ')).toEqual(['todo', 'done']);
    expect(parseIssueListParams({ priority: '0,3, 3' }).priority).toEqual([0, 3]);
  });
  it('refuses an empty list and more than 50 values (without reading further)', () => {
    rejects({ status: ' , ,' }, /status must not be empty/);
    rejects({ status: Array.from({ length: 51 }, (_, i) => `s${i}`).join(',') }, /status takes at most 50 values/);
    rejects({ status: `${Array.from({ length: 51 }, (_, i) => `s${i}`).join(',')},${'!'.repeat(1000)}` }, /status takes at most 50 values/);
    expect(parseStatuses(Array.from({ length: 50 }, (_, i) => `s${i}`).join(','))).toHaveLength(50);
  });
  it('reads true/false and asc/desc in any case; a long value is neither', () => {
    expect(parseIssueListParams({ open: 'TRUE', orderDir: 'DESC' })).toMatchObject({ open: true, orderDir: 'desc' });
    expect(parseIssueListParams({ include_archived: '0', orderDir: 'Asc' })).toMatchObject({ includeArchived: false, orderDir: 'asc' });
    rejects({ open: 'true'.repeat(100) }, /open must be true or false/);
    rejects({ orderDir: 'İ'.repeat(1000) }, /orderDir must be asc or desc/);
  });
  it('escapes ILIKE wildcards and reads issue numbers in q', () => {
    expect(likePattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
    expect(likePattern('$&')).toBe('%$&%');
    expect([
      issueNumberInQuery('42'),
      issueNumberInQuery('#42'),
      issueNumberInQuery('KEY-42'),
      issueNumberInQuery('KEY-42x'),
      issueNumberInQuery('1234567890'),
    ]).toEqual([42, 42, 42, undefined, undefined]);
  });
});

/** The search parameters as received from the query-string parser (values already decoded). */
describe('parseIssueSearchParams', () => {
  const status = (query: Record<string, unknown>): number | 'ok' => {
    try {
      parseIssueSearchParams(query);
      return 'ok';
    } catch (e) {
      return e instanceof DomainError ? e.status : -1;
    }
  };

  it('trims q, defaults includeArchived to false and takes the list paging', () => {
    expect(parseIssueSearchParams({ q: '  zephyr auth ', limit: '5', shape: 'envelope' })).toEqual({
      q: 'zephyr auth',
      includeArchived: false,
      page: { limit: 5, offset: 0, envelope: true },
    });
    expect(parseIssueSearchParams({ q: 'x', include_archived: 'true' }).includeArchived).toBe(true);
  });

  it.each([
    ['a lone high surrogate', 'a\uD800b'],
    ['a lone low surrogate', '\uDC00abc'],
    ['an undecoded percent escape (malformed UTF-8 left verbatim by the parser)', 'caf%C3%A9%FF'],
    ['an escape character', 'a\u001bb'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
    ['NUL', 'a\u0000b'],
  ])('400 for %s', (_name, q) => expect(status({ q })).toBe(400));

  it.each([
    ['a surrogate pair (emoji)', 'ship 🚀'],
    ['a literal percent sign', '100%'],
    ['a decodable escape sequence as text', '%20'],
    ['non-Latin letters', '日本語'],
    ['exactly 200 characters', 'a'.repeat(200)],
    ['tabs and line breaks (word separators)', 'zephyr\tauth\r\nflow'],
  ])('accepts %s', (_name, q) => expect(status({ q })).toBe('ok'));
});
