import { readFileSync } from 'node:fs';

/**
 * Messages between the launcher and its watchdog (src/process/watchdog.ts) over the IPC channel of
 * `fork`. The watchdog owns the server processes the launcher starts (the embedded PostgreSQL, a
 * local redis-server) and stops them last, also when the launcher itself is killed.
 */
export interface ServiceSpec {
  /** Shown in logs and used to address the service. */
  name: string;
  command: string;
  args: string[];
  /** Run as this user and group (root starts PostgreSQL as the `postgres` user). */
  uid?: number;
  gid?: number;
  /** stdout and stderr of the service go to this file (truncated at each start); otherwise nowhere. */
  logFile?: string;
  /** How to stop it: each signal in turn, waiting up to `waitMs` for the exit before the next one. */
  stop: { signal: NodeJS.Signals; waitMs: number }[];
}

export type ToWatchdog =
  | { type: 'spawn'; service: ServiceSpec }
  /** Processes (the API, the worker) to wait for before stopping the services when the launcher is gone. */
  | { type: 'guard'; pids: number[] }
  /** Stop every service, newest first, then exit. */
  | { type: 'stop' };

export type FromWatchdog =
  | { type: 'spawned'; name: string; pid: number }
  | { type: 'spawn-failed'; name: string; error: string }
  | { type: 'exited'; name: string; code: number | null; signal: NodeJS.Signals | null };

/**
 * How long the API and the worker may take to drain after SIGTERM (or after the launcher is gone)
 * before they are killed. With PostgreSQL's stop steps (4 s fast shutdown, 1 s immediate) a stop
 * takes at most about 9 s.
 */
export const CHILD_STOP_MS = 4_000;
/** When the launcher is gone: how long the watchdog waits for the API and the worker to exit before stopping the services anyway. */
export const GUARD_WAIT_MS = CHILD_STOP_MS + 500;

/** Whether a process exists (a zombie awaiting its parent counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (comm) S ..."; comm may contain spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false; // no /proc (macOS): kill(pid, 0) is all there is
  }
}
