import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The project root (Jest runs from it). */
export const ROOT = resolve(process.cwd());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * `npm run build` once per test run, for the files that start processes from dist/ (launcher,
 * scale-out, crash-effects, heap-tuning). Test files run in two workers at once, and two builds into one dist/
 * delete each other's output, so the first caller builds (it takes the run's build lock: a
 * directory in the run's DATA_DIR, made atomically, holding its pid) and the others wait for its
 * result: the same dist/ when it succeeded, the build's output as their error when it failed, and
 * an error of their own when the builder's process ended without a result. TEST_NO_BUILD=1 reuses
 * an existing dist/ (faster reruns while working on one of these tests). `needs`: files under
 * dist/ the caller starts (checked after the build). The caller's test timeout bounds the wait.
 */
export async function ensureBuilt(...needs: string[]): Promise<void> {
  const paths = needs.map((p) => join(ROOT, p));
  if (process.env.TEST_NO_BUILD === '1' && paths.every((p) => existsSync(p))) return;
  if (!process.env.DATA_DIR) throw new Error('DATA_DIR is not set (test/support/global-setup.ts sets it for the run)');
  const dir = join(process.env.DATA_DIR, 'dist-build');
  const result = join(dir, 'result.json');
  const owner = join(dir, 'pid');
  let builder = true;
  try {
    mkdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    builder = false;
  }
  if (builder) {
    let outcome: { ok: boolean; output: string } = { ok: false, output: 'the build did not finish' };
    try {
      writeFileSync(owner, String(process.pid));
      outcome = await new Promise((done) =>
        execFile('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
          done({ ok: !err, output: `${stdout}\n${stderr}` }),
        ),
      );
    } catch (e) {
      outcome = { ok: false, output: String((e as Error)?.stack ?? e) };
    } finally {
      // written whole, then renamed into place: a waiting worker never reads half of it
      writeFileSync(`${result}.tmp`, JSON.stringify(outcome));
      renameSync(`${result}.tmp`, result);
    }
  }
  while (!existsSync(result)) {
    const pid = Number(existsSync(owner) ? readFileSync(owner, 'utf8') : NaN);
    if (Number.isInteger(pid) && pid > 0 && !alive(pid) && !existsSync(result)) {
      throw new Error(`the worker that was building dist/ (pid ${pid}) ended without a result`);
    }
    await sleep(200);
  }
  const { ok, output } = JSON.parse(readFileSync(result, 'utf8')) as { ok: boolean; output: string };
  const missing = paths.filter((p) => !existsSync(p));
  if (!ok || missing.length) throw new Error(`npm run build failed${missing.length ? ` (missing ${missing.join(', ')})` : ''}:\n${output}`);
}
