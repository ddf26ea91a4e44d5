import type { Command } from 'commander';
import { InputError } from '../../errors/index.js';
import { onInterrupt } from '../../runtime/index.js';
import { startViewServer, type ViewServer } from '../../view/index.js';

/** `--port`: 0 (a free port the system picks) to 65535. */
export function portNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InputError(`--port must be a port number (0-65535), got "${value}"`);
  return n;
}

/** Serves `outDir` and says where, and that only this machine can reach it. */
export async function openView(outDir: string, port: number | undefined): Promise<ViewServer> {
  const view = await startViewServer({ outDir, port });
  onInterrupt(() => view.close());
  process.stderr.write(
    `evalrig view: ${outDir} at ${view.url} (bound to ${view.host}, loopback only: this machine alone can open it; read-only, but for review notes)\n`,
  );
  return view;
}

/** `evalrig view <out>`: the campaign folder served on 127.0.0.1 until interrupted. */
export function registerView(program: Command): void {
  program
    .command('view')
    .description(
      'serve a campaign folder on 127.0.0.1 (read-only): its runs step by step, conditions side by side, live while evalrig run plays into it, and review notes',
    )
    .argument('<out>', 'the campaign folder (the --out of evalrig run)')
    .option('--port <n>', 'the port (default: one the system picks)', portNumber)
    .action(async (out: string, flags: { port?: number }) => {
      await openView(out, flags.port);
      process.stderr.write('evalrig view: Ctrl-C stops it\n');
      // Served until a signal ends the process (its hook closes the server first).
      await new Promise<never>(() => undefined);
    });
}
