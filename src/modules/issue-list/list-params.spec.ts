import { DomainError } from '../../common/errors/domain-error';
import { parseIssueSearchParams } from './list-params';

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
