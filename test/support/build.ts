import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The project root (Jest runs from it). */
export const ROOT = resolve(process.cwd());

/**
 * `npm run build` once per test run, for the files that start processes from dist/ (launcher,
 * scale-out, crash-effects). Test files run in two workers at once, and two builds into one dist/
 * delete each other's output, so the first caller builds (it takes the run's build lock: a
 * directory in the run's DATA_DIR, made atomically) and the others wait for its result: the same
 * dist/ when it succeeded, the build's output as their error when it failed. TEST_NO_BUILD=1 reuses
 * an existing dist/ (faster reruns while working on one of these tests). `needs`: files under dist/
 * the caller starts (checked after the build).
 */
export async function ensureBuilt(...needs: string[]): Promise<void> {
  const paths = needs.map((p) => join(ROOT, p));
  if (process.env.TEST_NO_BUILD === '1' && paths.every((p) => existsSync(p))) return;
  const dir = join(process.env.DATA_DIR ?? ROOT, 'dist-build');
  const result = join(dir, 'result.json');
  let builder = true;
  try {
    mkdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    builder = false;
  }
  if (builder) {
    const outcome = await new Promise<{ ok: boolean; output: string }>((done) =>
      execFile('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
        done({ ok: !err, output: `${stdout}\n${stderr}` }),
      ),
    );
    // written whole, then renamed into place: a waiting worker never reads half of it
    writeFileSync(`${result}.tmp`, JSON.stringify(outcome));
    renameSync(`${result}.tmp`, result);
  }
  // the builder wrote its result above; another worker's build is awaited (the hook's timeout bounds the wait)
  while (!existsSync(result)) await new Promise((r) => setTimeout(r, 200));
  const { ok, output } = JSON.parse(readFileSync(result, 'utf8')) as { ok: boolean; output: string };
  const missing = paths.filter((p) => !existsSync(p));
  if (!ok || missing.length) throw new Error(`npm run build failed${missing.length ? ` (missing ${missing.join(', ')})` : ''}:\n${output}`);
}

/** How long a hook that may build (or wait for another worker's build) may take on a loaded machine. */
export const BUILD_HOOK_TIMEOUT_MS = 300_000;
