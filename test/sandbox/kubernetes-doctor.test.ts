/**
 * `evalrig doctor --engine k8s://…` against the real test cluster: each line
 * is the API server's answer (access reviews, a dry run of a run's Job), and a
 * user who lacks the Role's rights is the fix, with exit 1.
 */
import { expect } from 'chai';
import { execa } from 'execa';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { requireCluster, type K8sCluster } from '../support/k8s.js';

function doctor(...engine: string[]) {
  const flags = engine.flatMap((e) => ['--engine', e]);
  return execa('node', ['--import', 'tsx', 'src/cli/main.ts', 'doctor', '--no-agents', ...flags], {
    reject: false,
  });
}

describe('sandbox: evalrig doctor on a Kubernetes cluster', function () {
  let env: K8sCluster;
  let scratch: string;

  before(async function () {
    env = await requireCluster(this);
    scratch = await mkdtemp(path.join(tmpdir(), 'evalrig-k8s-doctor-'));
  });
  after(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('says which isolation holds, from the API server, and passes a user with the Role', async () => {
    const r = await doctor(`k8s://${env.kubeconfig}`);
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stdout).to.include('Kubernetes v1.20.2');
    expect(r.stdout).to.include(`namespace: ${env.namespace}`);
    expect(r.stdout).to.include('access: every call a run needs');
    expect(r.stdout).to.match(/pod hardening: holds .*read-only root, no token/u);
    // 1.20 with the test cluster's plugin enforces no policy: doctor must not claim it does.
    expect(r.stdout).to.match(
      /network policy: the deny-all policy is (accepted|in place); whether it is enforced/u,
    );
    expect(r.stdout).to.match(/runtime classes: not readable by this user \(403/u);
  });

  it('makes a namespace the user has no Role in the fix, naming what is missing (exit 1)', async () => {
    // The same user, pointed at a namespace its Role does not cover.
    const config = (await readFile(env.kubeconfig, 'utf8')).replace(
      `namespace: ${env.namespace}`,
      'namespace: default',
    );
    expect(config).to.include('namespace: default');
    const elsewhere = path.join(scratch, 'elsewhere.kubeconfig');
    await writeFile(elsewhere, config);
    const r = await doctor(`k8s://${elsewhere}`);
    expect(r.exitCode).to.equal(1);
    expect(r.stdout).to.include('access: missing create jobs, list pods, create pods/exec');
    expect(r.stderr).to.include('apply docs/k8s/evalrig-role.yaml');
    expect(r.stderr).not.to.match(/\n\s+at /u);
  });

  it('names an address whose context is not in the kubeconfig', async () => {
    const r = await doctor('k8s://no-such-context');
    expect(r.exitCode).to.equal(1);
    expect(r.stderr).to.include('no context named no-such-context');
  });
});
