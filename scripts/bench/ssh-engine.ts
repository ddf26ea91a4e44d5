/**
 * A campaign over ssh against the same campaign over TCP, on the same engine:
 * a second dockerd of its own (loopback TCP port) with an sshd of its own in
 * front of its socket (test/support/ssh-gateway: the key may run nothing but
 * `docker system dial-stdio`, as the Docker CLI's ssh uses it, or forward a
 * socket). Two ssh spellings are timed: `ssh://root@host:port` (a dial-stdio
 * process over there per HTTP connection) and `ssh://root@host:port/path.sock`
 * (the engine's socket forwarded by sshd itself, Podman's way; with
 * `--forwarded`). The campaign
 * is the toy's nominal one (plan, open a draft, carry it out, checks), its
 * runs driven as remote (archives in, deltas out) both ways, `--jobs 2`.
 * The two are interleaved, `rounds` times each, the order swapped each round;
 * the figure is the ratio of the medians. With `--dockerode`, dockerode's own
 * ssh transport (a new ssh connection per API call: what evalrig used before)
 * is timed once as well.
 *
 * Needs root, sshd and the docker CLI (scripts/sshd.sh).
 *
 *   node --import tsx scripts/bench/ssh-engine.ts [runs] [rounds] [--forwarded] [--dockerode]
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCampaign } from '../../src/campaign/index.js';
import { ensureTestImage } from '../../src/image/index.js';
import { connectDocker, pingDocker } from '../../src/runtime/index.js';
import {
  RemoteDockerProvider,
  engineAddress,
  type EngineAddress,
} from '../../src/sandbox/index.js';
import { EXECUTION } from '../../test/support/engines.js';
import { startSecondEngine } from '../../test/support/second-engine.js';
import { startSshGateway } from '../../test/support/ssh-gateway.js';
import { executionTurn, makeToyWorkspace, planningTurn, PLAN } from '../../test/support/toy.js';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const RUNS = Number(args[0] ?? 8);
const ROUNDS = Number(args[1] ?? 3);
const DOCKERODE = process.argv.includes('--dockerode');
const FORWARDED = process.argv.includes('--forwarded');
const quiet = { write: () => true } as unknown as NodeJS.WriteStream;

const client = connectDocker();
await pingDocker(client);
const image = await ensureTestImage(client, {});
const engine = await startSecondEngine({ tcp: true });
const gate = await startSshGateway(engine.host);
const home = await mkdtemp(path.join(tmpdir(), 'evalrig-bench-ssh-'));
// Interrupted: the engine and sshd it started go too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.allSettled([gate.stop(), engine.stop()]).then(() => process.exit(130));
  });
}
try {
  await mkdir(path.join(home, '.ssh'));
  await writeFile(path.join(home, '.ssh', 'known_hosts'), `${gate.knownHostsLine}\n`);
  // Shipped once before anything is timed (a campaign does it at its start).
  await new RemoteDockerProvider({ client: engine.client() }).ensureImage(
    { tag: image.tag, id: image.id },
    new RemoteDockerProvider({ client }),
  );
  const tcp = engineAddress(engine.tcpHost!);
  const ssh = engineAddress(gate.address, { SSH_AUTH_SOCK: gate.agentSocket }, home);
  const socket = new URL(engine.host).pathname;
  const forwarded = engineAddress(
    `${gate.address}${socket}`,
    { SSH_AUTH_SOCK: gate.agentSocket },
    home,
  );
  // dockerode's own transport: the address without evalrig's (options of protocol ssh).
  const perCall: EngineAddress = { ...ssh, ssh: undefined };

  const ws = await makeToyWorkspace({
    scripts: { nominal: { turns: [planningTurn(), executionTurn()] } },
    set: {
      checks: [{ name: 'tests', run: 'node test.js' }],
      evals: [{ id: 'nominal', prompt: 'Plan multiply.', turns: EXECUTION, runs: RUNS }],
    },
    files: { 'PLAN.md': PLAN },
  });
  let n = 0;
  async function campaign(address: EngineAddress): Promise<number> {
    const outDir = path.join(ws.root, `out-${n++}`);
    const start = performance.now();
    const r = await runCampaign({
      evalSetFile: ws.evalSetFile,
      outDir,
      jobs: 2,
      engines: [{ address, mounts: false }],
      log: quiet,
    });
    const s = (performance.now() - start) / 1000;
    if (r.played !== RUNS || r.failed !== 0)
      throw new Error(`played ${r.played}, failed ${r.failed}`);
    await rm(outDir, { recursive: true, force: true });
    return s;
  }

  const configs = new Map<string, EngineAddress>([
    ['tcp', tcp],
    ['ssh dial-stdio', ssh],
    ...(FORWARDED ? [['ssh socket forwarded', forwarded] as const] : []),
  ]);
  const names = [...configs.keys()];
  const times = new Map(names.map((n) => [n, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    // Each round a different order, so that none always runs first.
    const order = names.map((_, i) => names[(i + round) % names.length]!);
    for (const name of order) {
      const s = await campaign(configs.get(name)!);
      times.get(name)!.push(s);
      console.log(`round ${round + 1} ${name}: ${RUNS} runs in ${s.toFixed(1)} s`);
    }
  }
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const t = median(times.get('tcp')!);
  for (const name of names.slice(1)) {
    const s = median(times.get(name)!);
    console.log(`median tcp ${t.toFixed(1)} s, ${name} ${s.toFixed(1)} s: ${(s / t).toFixed(2)}x`);
  }
  if (DOCKERODE) {
    const d = await campaign(perCall);
    console.log(
      `dockerode's ssh (a connection per call): ${d.toFixed(1)} s = ${(d / t).toFixed(2)}x of tcp`,
    );
  }
  await ws.cleanup();
} finally {
  await rm(home, { recursive: true, force: true });
  await gate.stop();
  await engine.stop();
}
