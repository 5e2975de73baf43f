import { DomainError } from '../../common/errors/domain-error';
import { parseTitle, TITLE_MAX } from './issue-input';

describe('parseTitle', () => {
  it('counts characters as code points, after trimming', () => {
    expect(parseTitle(`  ${'😀'.repeat(TITLE_MAX)}  `)).toBe('😀'.repeat(TITLE_MAX));
    expect(parseTitle(`${' '.repeat(1 << 20)}a${' '.repeat(1 << 20)}`)).toBe('a');
  });
  it.each([
    ['501 code points', '😀'.repeat(TITLE_MAX + 1)],
    ['1001 code units', 'a'.repeat(2 * TITLE_MAX + 1)],
    ['1 MiB', 'a'.repeat(1 << 20)],
  ])('refuses %s', (_name, title) => {
    expect(() => parseTitle(title)).toThrow(DomainError);
    expect(() => parseTitle(title)).toThrow(`title must be at most ${TITLE_MAX} characters`);
  });
});
