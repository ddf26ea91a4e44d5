/**
 * What a reaper sweeps, one target per kind of thing an orchestrator leaves: an engine's
 * containers and networks (by label), the runs' disk-quota mounts. Each sweep says how many
 * it found; the reaper stops after rounds that find none.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { EngineCall } from './engine.js';

export interface SweepTarget {
  readonly name: string;
  /** Removes what it finds; resolves to how many it found (0: nothing left). */
  sweep(): Promise<number>;
}

interface Listed {
  readonly Id: string;
  readonly Labels?: Record<string, string> | null;
}

/**
 * The engine's containers and then its networks carrying every label. The holders of a run's
 * network namespace go last: Podman keeps one while a container shares it.
 */
export function engineTarget(
  call: EngineCall,
  labels: readonly string[],
  placeLabel: string,
): SweepTarget {
  const filters = encodeURIComponent(JSON.stringify({ label: labels }));
  return {
    name: 'containers and networks',
    async sweep() {
      const listed = await call('GET', `/containers/json?all=true&filters=${filters}`);
      if (listed.status !== 200) throw new Error(`list: ${listed.status}`);
      const found = JSON.parse(listed.body) as Listed[];
      const holder = (c: Listed) => c.Labels?.[placeLabel] !== undefined;
      for (const round of [found.filter((c) => !holder(c)), found.filter(holder)])
        await Promise.all(
          round.map((c) => call('DELETE', `/containers/${c.Id}?force=true&v=true`)),
        );
      // The runs' private networks (services): removable once their containers are gone.
      const nets = await call('GET', `/networks?filters=${filters}`);
      const ids = nets.status === 200 ? (JSON.parse(nets.body) as Listed[]).map((n) => n.Id) : [];
      await Promise.all(ids.map((id) => call('DELETE', `/networks/${id}`)));
      return found.length + ids.length;
    },
  };
}

/** The mount points under `prefix` in a mountinfo text, deepest first; only `owner`'s when given. */
export function quotaMounts(mountinfo: string, prefix: string, owner?: string): string[] {
  const under = prefix.replace(/\/*$/u, '/');
  // The mount's source is the second field after " - ": a quota's ends with `.<owner>`.
  const mine = (line: string) =>
    !owner || ((line.split(' - ')[1] ?? '').split(' ')[1] ?? '').endsWith(`.${owner}`);
  return mountinfo
    .split('\n')
    .filter(mine)
    .map((line) => (line.split(' ')[4] ?? '').replace(/\\040/gu, ' '))
    .filter((t) => t.startsWith(under))
    .sort((a, b) => b.length - a.length);
}

/**
 * The runs' disk quotas under `mounts`, lazily unmounted (a container still holding one does
 * not stop it), swept every round: a mount the orchestrator began before it died can land
 * after the first.
 */
export function quotaTarget(mounts: string, owner?: string): SweepTarget {
  return {
    name: 'quota mounts',
    async sweep() {
      let targets: string[];
      try {
        targets = quotaMounts(readFileSync('/proc/self/mountinfo', 'utf8'), mounts, owner);
      } catch {
        return 0;
      }
      for (const t of targets) spawnSync('umount', ['-l', t], { timeout: 10_000 });
      return targets.length;
    },
  };
}
