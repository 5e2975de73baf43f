import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';

/**
 * DATA_DIR receives generated secrets (session-secret, encryption-key, the embedded PostgreSQL
 * password), database files and uploads, so it must never be a folder git would commit. Rule: when
 * DATA_DIR lies inside a git work tree (a folder above it holds `.git`, a directory or a worktree's
 * file), that work tree's root `.gitignore` must ignore DATA_DIR or one of its parents with a
 * literal entry (`.data/`, `/var/`, `node_modules`; wildcard entries are not evaluated, `!entry`
 * re-includes, the last matching line wins). Outside any work tree every folder is accepted.
 * See docs/DECISIONS.md "Operations".
 */
export function dataDirProblem(dataDir: string): string | null {
  const real = resolveExistingPart(dataDir);
  const root = workTreeOf(real);
  if (!root) return null;
  const rel = relative(root, real).split(sep).join('/');
  if (rel !== '' && ignoredByRootGitignore(root, rel)) return null;
  const fix = rel === '' ? '' : `, or add "${rel}/" to ${join(root, '.gitignore')}`;
  return (
    `DATA_DIR (${dataDir}) is inside the git checkout ${root} and not ignored by its .gitignore: ` +
    `generated secrets, database files and uploads written there could be committed. ` +
    `Unset DATA_DIR (default ./.data, ignored), point it outside the checkout (e.g. /var/lib/service)${fix}`
  );
}

/** `p` with the symlinks of its existing part resolved (the rest may not exist yet). */
function resolveExistingPart(p: string): string {
  let head = p;
  const tail: string[] = [];
  while (!existsSync(head)) {
    const parent = dirname(head);
    if (parent === head) return p;
    tail.unshift(basename(head));
    head = parent;
  }
  return join(realpathSync(head), ...tail);
}

/** The nearest folder at or above `dir` that holds `.git`, or null. */
function workTreeOf(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return null;
  }
}

interface IgnoreEntry {
  negated: boolean;
  /** Relative to the root when anchored, otherwise a single name matched at any depth. */
  path: string;
  anchored: boolean;
}

/** The literal entries of `<root>/.gitignore` (comments, blanks and wildcard entries skipped). */
function literalEntries(root: string): IgnoreEntry[] {
  const file = join(root, '.gitignore');
  if (!existsSync(file)) return [];
  const entries: IgnoreEntry[] = [];
  for (const raw of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    const pattern = (negated ? line.slice(1) : line).replace(/\/+$/, '');
    if (pattern === '' || /[*?[\\]/.test(pattern)) continue;
    const anchored = pattern.includes('/');
    entries.push({ negated, anchored, path: pattern.replace(/^\/+/, '') });
  }
  return entries;
}

/** True when the folder `rel` (relative to `root`, `/`-separated) or one of its parents is ignored. */
function ignoredByRootGitignore(root: string, rel: string): boolean {
  const entries = literalEntries(root);
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const folder = parts.slice(0, i).join('/');
    let ignored = false;
    for (const e of entries) {
      if (e.anchored ? e.path === folder : e.path === parts[i - 1]) ignored = !e.negated;
    }
    // git never re-includes anything inside an ignored folder
    if (ignored) return true;
  }
  return false;
}
