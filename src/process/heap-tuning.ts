import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings of the service's processes (the API and the worker), applied by importing this module
 * first in their entry points (docs/DECISIONS.md, "Heap tuning").
 *
 * `--no-allocation-site-pretenuring`: V8 may decide, from one burst in which most objects of an
 * allocation site outlived a minor collection (seeding, a backlog after a stall), to allocate that
 * site's objects directly in the old generation from then on. A request path's objects die within
 * milliseconds, so a pretenured site fills the old generation with garbage: measured under the
 * runner lease load, the API's old space grew 8 MB/s and a full mark-compact (10-15 ms pause, plus
 * incremental marking) came every 3 s, and each one was a burst of slow requests. Without
 * pretenuring those objects die young: old space grew 0.3 MB/s and no mark-compact fell in the
 * measured window.
 */
export const HEAP_FLAGS = ['--no-allocation-site-pretenuring'] as const;

/** A V8 option's name, whatever its polarity (`--no-`), spelling (`_` or `-`) or value (`=…`). */
const optionName = (arg: string) =>
  arg
    .replace(/^--(no-)?/, '')
    .replace(/_/g, '-')
    .split('=')[0];

/**
 * The flags to set: each of HEAP_FLAGS unless the operator chose that setting (either polarity)
 * on the command line or in NODE_OPTIONS.
 */
export function heapFlagsToApply(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const given = new Set([...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map(optionName));
  return HEAP_FLAGS.filter((f) => !given.has(optionName(f)));
}

for (const flag of heapFlagsToApply(process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString(flag);
