import { CHILD_STOP_MS } from './watchdog-protocol';

/**
 * For the API and the worker when the launcher forked them (`npm start`): stop when the launcher
 * goes away (the IPC channel of `fork` closes, also when the launcher was killed), draining as on
 * SIGTERM, so no process outlives it. Without a launcher (start:api, start:worker) this does nothing.
 */
export function stopWhenLauncherGoes(close: () => Promise<void>, log: (msg: string) => void): void {
  if (!process.send) return;
  const stop = () => {
    log('the launcher is gone; shutting down');
    setTimeout(() => process.exit(1), CHILD_STOP_MS).unref();
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  if (!process.connected) return stop(); // it went while this process was starting
  process.once('disconnect', stop);
  // The listener must not keep the process alive on its own (a 'disconnect' listener refs the channel).
  process.channel?.unref();
}
