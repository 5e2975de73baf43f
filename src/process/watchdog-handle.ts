import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { type FromWatchdog, isAlive, type ServiceSpec, type ToWatchdog } from './watchdog-protocol';

/**
 * The launcher's side of its watchdog (src/process/watchdog.ts): forks it on the first service,
 * starts services through it, names the processes it must outlive, and stops it last.
 */
export class Watchdog {
  private child: ChildProcess | null = null;
  private readonly pids = new Map<string, number>();
  private readonly specs = new Map<string, ServiceSpec>();
  private exitListener: (name: string, how: string) => void = () => undefined;
  private stopped = false;

  constructor(private readonly log: (msg: string) => void) {}

  /** Called when a service (or the watchdog itself) exits without being asked to. */
  onUnexpectedExit(listener: (name: string, how: string) => void): void {
    this.exitListener = listener;
  }

  /** Starts a service; resolves with its pid. */
  spawn(service: ServiceSpec): Promise<number> {
    const child = this.ensureStarted();
    return new Promise<number>((resolve, reject) => {
      const onMessage = (m: FromWatchdog) => {
        if (m.name !== service.name || m.type === 'exited') return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        if (m.type === 'spawned') {
          this.pids.set(m.name, m.pid);
          this.specs.set(m.name, service);
          resolve(m.pid);
        } else reject(new Error(`could not start ${service.name} (${service.command}): ${m.error}`));
      };
      const onExit = () => reject(new Error(`the watchdog exited while starting ${service.name}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      this.send({ type: 'spawn', service });
    });
  }

  /** Whether the watchdog was forked (a service was started). */
  get started(): boolean {
    return this.child !== null;
  }

  /** The API and the worker: when the launcher is gone, the watchdog waits for them before stopping the services. */
  guard(pids: number[]): void {
    if (this.child) this.send({ type: 'guard', pids });
  }

  /** Stops the services (newest first) and the watchdog; resolves when they are gone. */
  async stop(): Promise<void> {
    this.stopped = true;
    const child = this.child;
    if (!child) return;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      this.send({ type: 'stop' });
      const stepsMs = [...this.specs.values()].reduce((sum, s) => sum + s.stop.reduce((t, step) => t + step.waitMs, 0), 0);
      const deadline = new Promise<void>((r) => setTimeout(r, stepsMs + 2_000).unref());
      await Promise.race([exited, deadline]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    // The watchdog was killed or gave up: stop what it left behind directly.
    for (const [name, pid] of [...this.pids].reverse()) {
      if (!isAlive(pid)) continue;
      this.log(`${name} (pid ${pid}) outlived the watchdog; sending SIGQUIT`);
      try {
        process.kill(pid, 'SIGQUIT');
      } catch {
        /* gone meanwhile */
      }
    }
  }

  private ensureStarted(): ChildProcess {
    if (this.child) return this.child;
    // detached: its own session and process group, so the terminal's Ctrl-C reaches the launcher
    // (which stops the services last) but neither the watchdog nor the services it starts.
    const child = fork(join(__dirname, 'watchdog.js'), [], { detached: true, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (m: FromWatchdog) => {
      if (m.type === 'exited' && !this.stopped) this.exitListener(m.name, m.signal ?? `code ${m.code}`);
    });
    child.once('exit', (code, signal) => {
      if (!this.stopped) this.exitListener('watchdog', signal ?? `code ${code}`);
    });
    this.child = child;
    this.log(`started the watchdog (pid ${child.pid})`);
    return child;
  }

  private send(m: ToWatchdog): void {
    if (this.child?.connected) this.child.send(m, undefined, {}, () => undefined);
  }
}
