/**
 * SIGINT and SIGTERM for the whole process. Installed first thing by the CLI,
 * so a signal is never missed, however early. The first signal runs the
 * registered clean-ups (the campaign removes its containers), each given a
 * deadline, then exits 130 (SIGINT) or 143 (SIGTERM); with nothing registered
 * it exits at once. A second signal, or the hard bound, exits at once: an
 * engine that hangs never keeps evalrig alive (the reaper process removes
 * what the clean-up could not, once the engine answers within its sweep).
 */

/** A clean-up run on the first signal; it should finish before `deadline` (epoch ms). */
export type InterruptHook = (signal: NodeJS.Signals, deadline: number) => Promise<void>;

export const EXIT_CODES: Readonly<Record<'SIGINT' | 'SIGTERM', number>> = {
  SIGINT: 130,
  SIGTERM: 143,
};

/** From the first signal to the exit, at most. */
export const INTERRUPT_BOUND_MS = 4_500;

const hooks = new Set<InterruptHook>();
let installed = false;
let caught: NodeJS.Signals | undefined;
let log: NodeJS.WritableStream = process.stderr;

function exitCode(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? EXIT_CODES.SIGINT : EXIT_CODES.SIGTERM;
}

function onSignal(signal: NodeJS.Signals): void {
  if (caught) {
    log.write(`\nevalrig: ${signal} again: exiting now\n`);
    process.exit(exitCode(caught));
  }
  caught = signal;
  if (hooks.size === 0) process.exit(exitCode(signal));
  const deadline = Date.now() + INTERRUPT_BOUND_MS;
  const hard = setTimeout(() => process.exit(exitCode(signal)), INTERRUPT_BOUND_MS + 300);
  void Promise.allSettled([...hooks].map((hook) => hook(signal, deadline))).then(() => {
    clearTimeout(hard);
    process.exit(exitCode(signal));
  });
}

/** Installs the handlers once (idempotent). `stream` receives the messages of a second signal. */
export function installSignalHandling(stream: NodeJS.WritableStream = process.stderr): void {
  log = stream;
  if (installed) return;
  installed = true;
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** Registers a clean-up for the first signal; returns its removal. Installs the handlers. */
export function onInterrupt(hook: InterruptHook): () => void {
  installSignalHandling(log);
  hooks.add(hook);
  return () => hooks.delete(hook);
}

/** The signal being handled, if any: work that checks it starts nothing new. */
export function interruptedBy(): NodeJS.Signals | undefined {
  return caught;
}
