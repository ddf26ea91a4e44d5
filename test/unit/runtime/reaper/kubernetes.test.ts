import { expect } from 'chai';
import { parseReaperConfig } from '../../../../src/runtime/reaper/config.js';
import {
  kubernetesTarget,
  type KubernetesKind,
  type KubernetesObjects,
} from '../../../../src/runtime/reaper/kubernetes.js';

/** One namespace's objects held in memory, selected by labels as the API selects them. */
class Namespace implements KubernetesObjects {
  readonly removed: string[] = [];
  private readonly objects: {
    kind: KubernetesKind;
    name: string;
    labels: Record<string, string>;
  }[] = [];

  add(kind: KubernetesKind, name: string, labels: Record<string, string>): void {
    this.objects.push({ kind, name, labels });
  }

  list(kind: KubernetesKind, selector: string): Promise<readonly string[]> {
    const wanted = selector.split(',').map((kv) => kv.split('='));
    return Promise.resolve(
      this.objects
        .filter((o) => o.kind === kind && wanted.every(([k, v]) => o.labels[k!] === v))
        .map((o) => o.name),
    );
  }

  remove(kind: KubernetesKind, name: string): Promise<void> {
    const i = this.objects.findIndex((o) => o.kind === kind && o.name === name);
    if (i >= 0) this.objects.splice(i, 1);
    this.removed.push(`${kind}/${name}`);
    return Promise.resolve();
  }
}

describe('reaper: the Kubernetes sweep target', () => {
  const mine = { 'evalrig.managed': 'true', 'evalrig.session': 's1' };
  const theirs = { 'evalrig.managed': 'true', 'evalrig.session': 's2' };

  it("removes every object carrying all the labels, Jobs first and the campaign's anchor last, and only those", async () => {
    const ns = new Namespace();
    ns.add('configmaps', 'anchor-s1', mine);
    ns.add('networkpolicies', 'deny-s1', mine);
    ns.add('pods', 'stray-s1', mine);
    ns.add('jobs', 'run-1', mine);
    ns.add('jobs', 'run-other', theirs);
    const target = kubernetesTarget(ns, ['evalrig.managed=true', 'evalrig.session=s1']);
    expect(await target.sweep()).to.equal(4);
    expect(ns.removed).to.deep.equal([
      'jobs/run-1',
      'pods/stray-s1',
      'networkpolicies/deny-s1',
      'configmaps/anchor-s1',
    ]);
    expect(await target.sweep(), 'a second round finds nothing').to.equal(0);
    expect(await ns.list('jobs', 'evalrig.session=s2')).to.deep.equal(['run-other']);
  });

  it('reads a Kubernetes configuration, refusing one with no namespace or a kubeconfig or context not a string', () => {
    const base = { labels: ['evalrig.session=s1'], placeLabel: 'evalrig.place', sweepMs: 1000 };
    const cfg = parseReaperConfig(
      JSON.stringify({
        ...base,
        https: false,
        kubernetes: { context: 'kind', namespace: 'evals' },
      }),
    );
    expect(cfg.kubernetes).to.deep.equal({ context: 'kind', namespace: 'evals' });
    expect(() => parseReaperConfig(JSON.stringify({ ...base, kubernetes: {} }))).to.throw(
      'reaper: kubernetes.namespace must be a non-empty string',
    );
    for (const key of ['kubeconfig', 'context'])
      expect(() =>
        parseReaperConfig(JSON.stringify({ ...base, kubernetes: { namespace: 'e', [key]: 7 } })),
      ).to.throw(`reaper: kubernetes.${key} must be a non-empty string when given`);
    expect(() => parseReaperConfig(JSON.stringify(base))).to.throw(
      'reaper: give one of socketPath, host, ssh or kubernetes',
    );
  });
});
