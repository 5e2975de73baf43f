import { parseInclude } from './get-issue.handler';

describe('parseInclude (issue detail `include`)', () => {
  it('reads known projections', () => {
    expect([...parseInclude(undefined)]).toEqual([]);
    expect([...parseInclude(' artifact_manifest ')]).toEqual(['artifact_manifest']);
  });
  it.each([
    ['an unknown projection', 'x,artifact_manifest', 'Unknown include "x"'],
    ['an unknown one after a known one', 'artifact_manifest,x', 'Unknown include "x"'],
    ['a repeated one', 'artifact_manifest,artifact_manifest', 'include artifact_manifest is given twice'],
    ['a long list (read no further than needed)', `artifact_manifest,artifact_manifest${',x'.repeat(1 << 19)}`, 'include artifact_manifest is given twice'],
    ['a list of blanks', ','.repeat(1 << 20), 'Unknown include ""'],
  ])('refuses %s', (_name, include, message) => expect(() => parseInclude(include)).toThrow(message));
});
