/**
 * model-relay: runs one command with a TCP relay beside it, for agents that cannot speak to a
 * unix socket (Codex). It listens on 127.0.0.1:PORT inside the run's container (network none:
 * loopback only), pipes each connection byte for byte to the run's model gateway socket, runs
 * the command with its stdio, and exits with the command's exit code once it ends.
 *
 *   model-relay PORT SOCKET -- codex exec --json …
 *
 * Only bytes cross it: the gateway on the host decides what is allowed and adds the key.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { constants } from 'node:os';

function usage(problem: string): never {
  process.stderr.write(
    `model-relay: ${problem}\nusage: model-relay PORT SOCKET -- COMMAND [ARG…]\n`,
  );
  process.exit(2);
}

const args = process.argv.slice(2);
const sep = args.indexOf('--');
if (sep !== 2) usage('expected PORT SOCKET then --');
const port = Number(args[0]);
const socketPath = args[1]!;
const command = args.slice(3);
if (!Number.isInteger(port) || port < 1 || port > 65535)
  usage(`bad port ${JSON.stringify(args[0])}`);
if (command.length === 0) usage('no command after --');

const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.pipe(upstream);
  upstream.pipe(client);
  // Either side closing or failing ends both: the agent sees a dropped connection and retries.
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
});

server.on('error', (e) => {
  process.stderr.write(`model-relay: cannot listen on 127.0.0.1:${port}: ${e.message}\n`);
  process.exit(2);
});

server.listen(port, '127.0.0.1', () => {
  const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit' });
  child.on('error', (e) => {
    process.stderr.write(`model-relay: cannot start ${command[0]}: ${e.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => {
    server.close();
    process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 15) : 1));
  });
  for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => child.kill(sig));
});
