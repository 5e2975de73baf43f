import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { type FromWatchdog, GUARD_WAIT_MS, isAlive, type ServiceSpec, type ToWatchdog } from './watchdog-protocol';

/**
 * The launcher's watchdog: a small process the launcher forks in its own session (so the
 * terminal's Ctrl-C does not reach it) that starts and owns the server processes (the embedded
 * PostgreSQL, a local redis-server). It stops them, newest first, when the launcher asks ("stop",
 * after the API and the worker are gone) or when the launcher disappears (its IPC channel closes,
 * e.g. after a SIGKILL): then it first waits for the processes the launcher named ("guard": the
 * API and the worker, which notice the same and drain) so the database still goes last.
 */
const log = (msg: string) => {
  try {
    process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), process: 'watchdog', msg })}\n`);
  } catch {
    /* the terminal or pipe is gone: keep stopping the services regardless */
  }
};
process.stdout.on('error', () => undefined);

interface Running {
  spec: ServiceSpec;
  child: ChildProcess;
  exited: Promise<void>;
}

const services: Running[] = [];
let guarded: number[] = [];
let stopping: Promise<void> | null = null;

const send = (m: FromWatchdog) => {
  if (process.connected) process.send!(m, undefined, {}, () => undefined);
};

function start(spec: ServiceSpec): void {
  if (stopping) return send({ type: 'spawn-failed', name: spec.name, error: 'the watchdog is stopping' });
  let fd: number | 'ignore' = 'ignore';
  try {
    if (spec.logFile) fd = openSync(spec.logFile, 'w', 0o640);
    const child = spawn(spec.command, spec.args, { uid: spec.uid, gid: spec.gid, stdio: ['ignore', fd, fd] });
    const exited = new Promise<void>((resolve) => {
      child.once('error', (e) => {
        send({ type: 'spawn-failed', name: spec.name, error: e.message });
        resolve();
      });
      child.once('exit', (code, signal) => {
        send({ type: 'exited', name: spec.name, code, signal });
        resolve();
      });
    });
    if (child.pid !== undefined) {
      services.push({ spec, child, exited });
      send({ type: 'spawned', name: spec.name, pid: child.pid });
    }
  } catch (e) {
    send({ type: 'spawn-failed', name: spec.name, error: (e as Error).message });
  } finally {
    if (typeof fd === 'number') closeSync(fd);
  }
}

async function stopService({ spec, child, exited }: Running): Promise<void> {
  for (const { signal, waitMs } of spec.stop) {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const timer = new Promise<void>((r) => setTimeout(r, waitMs).unref());
    await Promise.race([exited, timer]);
  }
  await exited;
}

async function waitForGuarded(): Promise<void> {
  const deadline = Date.now() + GUARD_WAIT_MS;
  while (guarded.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const left = guarded.filter(isAlive);
  if (left.length) log(`processes ${left.join(', ')} still running after ${GUARD_WAIT_MS} ms; stopping the services anyway`);
}

function stopAll(reason: string, launcherGone: boolean): Promise<void> {
  stopping ??= (async () => {
    const names =
      services
        .map((s) => s.spec.name)
        .reverse()
        .join(', then ') || 'nothing';
    log(`${reason}; stopping ${names}${launcherGone && guarded.length ? ` after the API and the worker (pids ${guarded.join(', ')})` : ''}`);
    if (launcherGone) await waitForGuarded();
    for (const s of [...services].reverse()) {
      await stopService(s);
      log(`${s.spec.name} stopped`);
    }
    if (process.connected) process.disconnect();
    process.exit(0);
  })();
  return stopping;
}

process.on('message', (m: ToWatchdog) => {
  if (m.type === 'spawn') start(m.service);
  else if (m.type === 'guard') guarded = m.pids;
  else if (m.type === 'stop') void stopAll('asked to stop', false);
});
process.on('disconnect', () => void stopAll('the launcher is gone', true));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stopAll(`received ${signal}`, true));
