import { NAME_READ_MAX, slugify } from './slug';

describe('slugify', () => {
  it.each([
    ['Platform Team (EU)', 'platform-team-eu'],
    ['  Café — Ünïcode  ', 'cafe-unicode'],
    ['!!!', 'team'],
    ['x'.repeat(100), 'x'.repeat(60)],
    [`${'a-'.repeat(29)}a--b`, `${'a-'.repeat(29)}a`],
  ])('%s → %s', (name, slug) => expect(slugify(name, 'team')).toBe(slug));

  it(`reads the first ${NAME_READ_MAX} characters of a name (names are at most 200)`, () => {
    expect(slugify(`${'!'.repeat(NAME_READ_MAX)}abc`, 'team')).toBe('team');
    expect(slugify(`${'!'.repeat(NAME_READ_MAX - 3)}abc`, 'team')).toBe('abc');
    expect(slugify('\ufdfa'.repeat(1 << 20), 'team')).toBe('team');
  });
});
