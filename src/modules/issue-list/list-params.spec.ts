import { DomainError } from '../../common/errors/domain-error';
import { issueNumberInQuery, likePattern, parseIssueListParams, parseStatuses } from './list-params';

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
