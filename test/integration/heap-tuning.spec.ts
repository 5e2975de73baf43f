import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HEAP_FLAGS, heapFlagsToApply } from '../../src/process/heap-tuning';
import { ensureBuilt, ROOT } from '../support/build';

/**
 * A literal site whose objects outlive minor collections, then 1000 fresh objects of it: how many
 * of them V8 placed in the young generation (0 when it pretenured the site). Run in a child with
 * V8's test natives; `preload` is required first, as an entry point imports the module.
 */
const PROBE = `
function make(i) { return { i, a: [i, i + 1] }; }
%PrepareFunctionForOptimization(make);
const keep = [];
for (let r = 0; r < 10; r++) {
  for (let i = 0; i < 20000; i++) keep.push(make(i));
  %OptimizeFunctionOnNextCall(make); make(0);
  gc({ type: 'minor' });
}
// optimized again, with whatever V8 decided for the site
%PrepareFunctionForOptimization(make);
%OptimizeFunctionOnNextCall(make); make(0);
let young = 0;
for (let i = 0; i < 1000; i++) if (%InYoungGeneration(make(i))) young++;
process.stdout.write(String(young));
`;

// V8 decides to pretenure only in a minor collection of a young generation at its largest: a fixed
// 1 MB one is always at its largest, so the decision does not hang on how the young generation grew
const V8_ARGS = ['--allow-natives-syntax', '--expose-gc', '--min-semi-space-size=1', '--max-semi-space-size=1'];
const youngOf = (preload: string[]) =>
  Number(execFileSync(process.execPath, [...V8_ARGS, ...preload.flatMap((p) => ['--require', p]), '-e', PROBE], { encoding: 'utf8' }));

describe('heap tuning (src/process/heap-tuning.ts)', () => {
  beforeAll(() => ensureBuilt('dist/src/process/heap-tuning.js'), 300_000);

  it('the built module turns allocation-site pretenuring off in a running process (without it V8 pretenures the probe site)', () => {
    // the precondition: this V8 pretenures a site whose objects survive (seen once in three tries)
    expect(Math.min(youngOf([]), youngOf([]), youngOf([]))).toBe(0);
    const tuned = join(ROOT, 'dist/src/process/heap-tuning.js');
    expect([youngOf([tuned]), youngOf([tuned]), youngOf([tuned])]).toEqual([1000, 1000, 1000]);
  });

  it('keeps a setting the operator chose on the command line or in NODE_OPTIONS, in either polarity and spelling', () => {
    expect(heapFlagsToApply([], undefined)).toEqual([...HEAP_FLAGS]);
    expect(heapFlagsToApply(['--require', '/x.js'], '--max-old-space-size=512')).toEqual([...HEAP_FLAGS]);
    expect(heapFlagsToApply(['--allocation-site-pretenuring'], undefined)).toEqual([]);
    expect(heapFlagsToApply([], '--max-old-space-size=512 --no-allocation_site_pretenuring')).toEqual([]);
  });

  it('the API and worker entry points import it before anything else', () => {
    for (const entry of ['src/main.ts', 'src/worker.ts']) {
      const first = readFileSync(join(ROOT, entry), 'utf8')
        .split('\n')
        .find((l) => l.startsWith('import '));
      expect(`${entry}: ${first}`).toBe(`${entry}: import './process/heap-tuning';`);
    }
  });
});
