/**
 * cline-acp: plays one turn of the Cline CLI through its Agent Client Protocol mode, the only
 * way it continues a saved session without a terminal (its `--id` opens its interactive UI and
 * drops the prompt). It writes Cline's provider settings under HOME (its OpenAI-compatible
 * provider at BASE_URL, the placeholder key), starts `cline --acp`, opens a session (a new
 * one, or the saved SESSION), sets MODEL, sends PROMPT, and then prints the turn as JSON lines:
 *
 *   {"type":"session","sessionId":…}       the session the turn played in
 *   {"type":"message","message":{…}}       each message the turn added, as Cline saved it
 *   {"type":"result","stopReason":…}       or {"type":"error","message":…}
 *
 * The messages are Cline's own record (its `<id>.messages.json`): its ACP updates carry no
 * usage, its record does, per model answer. Cline's stderr passes through.
 *
 *   cline-acp AGENT BASE_URL MODEL SESSION|- -- PROMPT [AGENT_ARG…]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

function usage(problem: string): never {
  process.stderr.write(
    `cline-acp: ${problem}\nusage: cline-acp AGENT BASE_URL MODEL SESSION|- -- PROMPT [AGENT_ARG…]\n`,
  );
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.length < 6 || args[4] !== '--') usage('expected AGENT BASE_URL MODEL SESSION -- PROMPT');
const [agent, baseUrl, model, resumed, , prompt, ...agentArgs] = args as [
  string,
  string,
  string,
  string,
  string,
  string,
  ...string[],
];
const home = process.env.HOME ?? usage('HOME is not set');
const apiKey = process.env.CLINE_API_KEY ?? usage('CLINE_API_KEY is not set');
const dataDir = path.join(home, '.cline', 'data');

/** Its provider settings: the one provider it uses, at the relay (its model set per session). */
function writeSettings(): void {
  const dir = path.join(dataDir, 'settings');
  mkdirSync(dir, { recursive: true });
  const settings = { provider: 'openai-compatible', apiKey, model, baseUrl };
  const file = {
    version: 1,
    lastUsedProvider: 'openai-compatible',
    modes: {},
    // Its schema wants `updatedAt`: without it the file is read as no settings at all.
    providers: {
      'openai-compatible': { settings, updatedAt: new Date().toISOString(), tokenSource: 'manual' },
    },
  };
  writeFileSync(path.join(dir, 'providers.json'), `${JSON.stringify(file, null, 2)}\n`);
}

/** The messages Cline saved for `session` (none before its first turn). */
function savedMessages(session: string): unknown[] {
  const file = path.join(dataDir, 'sessions', session, `${session}.messages.json`);
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { messages?: unknown };
    return Array.isArray(saved.messages) ? saved.messages : [];
  } catch {
    return [];
  }
}

const print = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

writeSettings();
const child = spawn(agent, ['--acp', '--auto-approve', 'true', ...agentArgs], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
child.on('error', (e) => {
  print({ type: 'error', message: `cannot start ${agent}: ${e.message}` });
  process.exit(127);
});

type Reply = { result?: Record<string, unknown>; error?: { message?: string } };
const waiting = new Map<number, (reply: Reply) => void>();
let next = 0;
createInterface({ input: child.stdout! }).on('line', (line) => {
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return;
  }
  const id = m.id;
  if (typeof m.method === 'string') {
    // A request of the agent's (a file or terminal of the client's, a permission): none is
    // offered, so none is granted.
    if (typeof id === 'number' || typeof id === 'string')
      send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'not offered by evalrig' } });
    return;
  }
  if (typeof id === 'number') waiting.get(id)?.(m as Reply);
});
child.stdout!.on('end', () => {
  for (const done of waiting.values())
    done({ error: { message: 'the agent ended its ACP session' } });
});

function send(message: Record<string, unknown>): void {
  child.stdin!.write(`${JSON.stringify(message)}\n`);
}

function call(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const id = ++next;
  return new Promise((resolve, reject) => {
    waiting.set(id, (reply) => {
      waiting.delete(id);
      if (reply.error) reject(new Error(`${method}: ${reply.error.message ?? 'failed'}`));
      else resolve(reply.result ?? {});
    });
    send({ jsonrpc: '2.0', id, method, params });
  });
}

/** Ends the agent: its input closed first (it exits), a kill if it lingers. */
function finish(code: number): void {
  child.stdin!.end();
  const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
  child.on('exit', () => {
    clearTimeout(kill);
    process.exit(code);
  });
  if (child.exitCode !== null || child.signalCode !== null) process.exit(code);
}

for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => child.kill(sig));

async function play(): Promise<number> {
  const cwd = process.cwd();
  await call('initialize', { protocolVersion: 1, clientCapabilities: {} });
  let session = resumed;
  if (resumed === '-') {
    const opened = await call('session/new', { cwd, mcpServers: [] });
    if (typeof opened.sessionId !== 'string') throw new Error('session/new named no session');
    session = opened.sessionId;
  } else {
    await call('session/load', { sessionId: session, cwd, mcpServers: [] });
  }
  print({ type: 'session', sessionId: session });
  await call('session/set_model', { sessionId: session, modelId: model });
  const before = savedMessages(session).length;
  let failure: Error | null = null;
  let stopReason: unknown = null;
  try {
    const answer = await call('session/prompt', {
      sessionId: session,
      prompt: [{ type: 'text', text: prompt }],
    });
    stopReason = answer.stopReason;
  } catch (e) {
    failure = e instanceof Error ? e : new Error(String(e));
  }
  for (const message of savedMessages(session).slice(before)) print({ type: 'message', message });
  if (failure) {
    print({ type: 'error', message: failure.message });
    return 1;
  }
  print({ type: 'result', stopReason });
  return stopReason === 'end_turn' ? 0 : 1;
}

play().then(finish, (e: unknown) => {
  print({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  finish(1);
});
