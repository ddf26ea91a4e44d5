import { expect } from 'chai';
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import {
  LABELS,
  SERVICE_LABEL,
  SandboxError,
  type Sandbox,
  type SandboxProvider,
  type ServiceSpec,
} from '../../src/sandbox/index.js';
import type { DockerClient } from '../../src/runtime/index.js';

/**
 * What a backend that runs services gives the suite: its provider, the engine's
 * client (to look at what the provider made, and to kill a service as a crash
 * would), an image with node and bash (the base image), labels to reap by.
 */
export interface ServicesTarget {
  readonly provider: SandboxProvider;
  readonly client: DockerClient;
  readonly image: string;
  readonly labels: Readonly<Record<string, string>>;
  /** TCP ports the engine's API listens on, probed at the gateway and every host address. */
  readonly enginePorts?: readonly number[];
}

/** A service of the base image: a TCP server on `port` that answers `hello from <name>`. */
function echoService(image: string, name: string, port = 7000): ServiceSpec {
  // A probe that closes before reading resets the connection: the socket's
  // error is ignored, or node would die of it (exit 1) before the test's kill.
  // The line is written before listening: once the port answers, it is in the
  // log (a line written in listen's callback could be cut by an early kill).
  const js = `console.log('listening ${name}'); require('net').createServer((s) => { s.on('error', () => {}); s.end('hello from ${name}\\n'); }).listen(${port})`;
  return {
    name,
    image,
    cmd: ['node', '-e', js],
    limits: { memoryBytes: 256 * 1024 ** 2, cpus: 1, pids: 64 },
    ready: { port, timeoutMs: 20_000 },
  };
}

/**
 * A node script run in the sandbox: connects to each target, prints one line
 * per target (`host:port connected|<error code>`), each attempt bounded.
 */
function probeScript(targets: readonly (readonly [string, number])[]): string {
  return `
const net = require('net');
const targets = ${JSON.stringify(targets)};
Promise.all(targets.map(([host, port]) => new Promise((done) => {
  const s = net.connect({ host, port });
  const t = setTimeout(() => { s.destroy(); done(host + ':' + port + ' timeout'); }, 4000);
  s.on('data', (d) => { clearTimeout(t); s.destroy(); done(host + ':' + port + ' connected ' + String(d).trim()); });
  s.on('connect', () => setTimeout(() => { clearTimeout(t); s.destroy(); done(host + ':' + port + ' connected'); }, 300));
  s.on('error', (e) => { clearTimeout(t); done(host + ':' + port + ' ' + e.code); });
}))).then((lines) => console.log(lines.join('\\n')));`;
}

/** The host's IPv4 addresses (every interface's), where a listener on 0.0.0.0 answers. */
function hostAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a) => a !== undefined && a.family === 'IPv4')
    .map((a) => a!.address);
}

async function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer((s) => {
    s.on('error', () => {}); // a probe's reset must not throw in the test process
    s.end('host answered\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/**
 * A container's endpoint on the run's network: its own, or the one of the
 * place holder whose network namespace it joined (sandbox/docker/services/).
 */
async function endpointOf(
  client: DockerClient,
  id: string,
): Promise<{ IPAddress: string; Gateway: string; NetworkID: string }> {
  let info = await client.docker.getContainer(id).inspect();
  const mode = info.HostConfig.NetworkMode ?? '';
  if (mode.startsWith('container:')) {
    info = await client.docker.getContainer(mode.slice('container:'.length)).inspect();
  }
  return Object.values(info.NetworkSettings.Networks)[0]!;
}

/** What the provider left with `labels`: containers and networks. */
async function leftovers(client: DockerClient, labels: Record<string, string>): Promise<number> {
  const filters = { label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) };
  const containers = await client.docker.listContainers({ all: true, filters });
  const networks = await client.docker.listNetworks({ filters });
  return containers.length + networks.length;
}

/** The service cases every backend that says it runs services passes. */
export function servicesConformance(name: string, target: () => Promise<ServicesTarget>): void {
  describe(`services conformance: ${name}`, function () {
    let t: ServicesTarget;
    const started: Sandbox[] = [];
    let n = 0;
    const runLabels = (): Record<string, string> => ({
      ...t.labels,
      [LABELS.run]: `services-${process.pid}-${++n}`,
    });

    before(async () => {
      t = await target();
      expect(t.provider.servicesRefusal?.()).to.equal(undefined);
    });
    after(async () => {
      await Promise.all(started.map((s) => s.remove().catch(() => undefined)));
      await t?.provider.reap(t.labels);
    });

    async function startWith(services: ServiceSpec[], labels = runLabels()): Promise<Sandbox> {
      const s = await t.provider.start({ image: t.image, labels, services });
      started.push(s);
      return s;
    }

    it('a service answers by name; the host, its engine gateway, another run and the outside do not', async () => {
      const { server, port } = await listening();
      try {
        const [a, b] = await Promise.all([
          startWith([echoService(t.image, 'db')]),
          startWith([echoService(t.image, 'db')]),
        ]);
        expect(a.services?.map((s) => s.name)).to.deep.equal(['db']);
        expect(a.services![0]!.readyMs).to.be.a('number');
        const bAddress = (await endpointOf(t.client, b.services![0]!.id)).IPAddress;
        const aNet = await endpointOf(t.client, a.id);
        const net = await t.client.docker.getNetwork(aNet.NetworkID).inspect();
        // Podman's compatible API says "<nil>" for the network's gateway; the container's names it.
        const ipv4 = /^\d+\.\d+\.\d+\.\d+$/u;
        const gateway = [net.IPAM?.Config?.[0]?.Gateway as string | undefined, aNet.Gateway].find(
          (g) => g !== undefined && ipv4.test(g),
        );
        expect(gateway, 'the engine names a gateway address').to.match(ipv4);
        const targets: [string, number][] = [
          ['db', 7000],
          [bAddress, 7000],
          [gateway!, port],
          [gateway!, 2375],
          ...hostAddresses().map((h): [string, number] => [h, port]),
          ...(t.enginePorts ?? []).flatMap((p) =>
            [gateway!, ...hostAddresses()].map((h): [string, number] => [h, p]),
          ),
          ['192.0.2.1', 80],
          ['1.1.1.1', 443],
        ];
        const r = await a.exec(['node', '-e', probeScript(targets)], { timeoutMs: 30_000 });
        const lines = r.stdout.trim().split('\n');
        expect(lines[0]).to.equal('db:7000 connected hello from db');
        for (const line of lines.slice(1)) expect(line).to.not.match(/connected/u);
        expect(lines).to.have.length(targets.length);
      } finally {
        server.close();
      }
    });

    it('a service that dies is reported: which, when, its exit code and last lines', async () => {
      const s = await startWith([echoService(t.image, 'cache', 7001)]);
      expect(await s.serviceFailures!()).to.deep.equal([]);
      await t.client.docker.getContainer(s.services![0]!.id).kill({ signal: 'SIGKILL' });
      const [failure, ...more] = await s.serviceFailures!();
      expect(more).to.deep.equal([]);
      expect(failure!.name).to.equal('cache');
      expect(failure!.exitCode).to.equal(137);
      expect(Date.parse(failure!.at)).to.be.greaterThan(Date.now() - 60_000);
      expect(failure!.logTail).to.include('listening cache');
    });

    it('removal takes the services and the network; so does a reap by label', async () => {
      const labels = runLabels();
      const s = await startWith(
        [echoService(t.image, 'one'), echoService(t.image, 'two', 7002)],
        labels,
      );
      // The sandbox, the two services, a place holder for each of the three, the network.
      expect(await leftovers(t.client, labels)).to.equal(7);
      await s.remove();
      expect(await leftovers(t.client, labels)).to.equal(0);
      await startWith([echoService(t.image, 'one')], labels);
      await t.provider.reap(labels);
      expect(await leftovers(t.client, labels)).to.equal(0);
    });

    it('a start reserved ahead: its network and places made at once, joined by the start; a release leaves nothing', async () => {
      const labels = runLabels();
      const services = [echoService(t.image, 'db')];
      const reserved = t.provider.reserve!({ image: t.image, labels, services });
      await reserved.made;
      // The network and a holder each for the sandbox and the service, nothing started in them yet.
      expect(await leftovers(t.client, labels)).to.equal(3);
      const s = await reserved.start({ image: t.image, labels, services });
      started.push(s);
      await reserved.release(); // once started: nothing to give back
      const r = await s.exec(['node', '-e', probeScript([['db', 7000]])], { timeoutMs: 20_000 });
      expect(r.stdout.trim()).to.equal('db:7000 connected hello from db');
      expect(await leftovers(t.client, labels)).to.equal(5);
      await s.remove();
      expect(await leftovers(t.client, labels)).to.equal(0);
      const unused = runLabels();
      const given = t.provider.reserve!({ image: t.image, labels: unused, services });
      await given.made;
      await given.release();
      expect(await leftovers(t.client, unused)).to.equal(0);
    });

    it('a service never ready fails the start naming it, and leaves nothing', async () => {
      const labels = runLabels();
      const never: ServiceSpec = {
        ...echoService(t.image, 'slow'),
        ready: { command: 'exit 1', timeoutMs: 1500 },
      };
      const error = await t.provider.start({ image: t.image, labels, services: [never] }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(SandboxError);
      expect((error as Error).message).to.match(/service slow: not ready within 1.5 s/u);
      expect(await leftovers(t.client, labels)).to.equal(0);
      const labelled = await t.client.docker.listContainers({
        all: true,
        filters: { label: [`${SERVICE_LABEL}=slow`, `${LABELS.run}=${labels[LABELS.run]}`] },
      });
      expect(labelled).to.deep.equal([]);
    });
  });
}
