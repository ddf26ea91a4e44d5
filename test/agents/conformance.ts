/**
 * The agent conformance suite: every adapter, its REAL binary, held to what it actually sent.
 * One campaign per agent plays every case as a condition (two turns each, the second resuming
 * the session); each condition's model calls go through its run's gateway to a logging
 * upstream on the host, which records every request byte for byte and has a model stand-in
 * behind it. The truth is that log: a staged file reached the model when its canary is in what
 * the binary sent; the figures are what the upstream served. A new adapter lands only with
 * this suite green (test/agents/<agent>.test.ts).
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import type { RunRecord, StopRecord } from '../../src/artifacts/index.js';
import type { BenchmarkFile } from '../../src/report/index.js';
import { readTrajectory } from '../../src/trajectory/index.js';
import type { ModelCall } from '../../src/flight/index.js';
import type { StandInRequest } from '../../src/model-stand-in/index.js';
import { readJson, readJsonLines } from '../support/campaign.js';
import { requireDocker } from '../support/docker.js';
import {
  startLoggingUpstream,
  type LoggedCall,
  type LoggingUpstream,
} from '../support/logging-upstream.js';
import { evalrigRun, makeToyWorkspace, type CliRun, type ToyWorkspace } from '../support/toy.js';
import { E2E_KEY, E2E_KEY_ENV, everythingWritten } from '../support/witness-evals.js';
import { conformanceCases, PROMPT, SECOND, stagedFiles, type ConformanceCase } from './cases.js';
import type { AgentProfile } from './profile.js';
import { keyHeaders, sent, truthOf } from './truth.js';

/** What the gateway and the upstream each saw of a run, one line a call: a failure's story. */
async function callsSeen(dir: string, upstream: readonly StandInRequest[]): Promise<string> {
  const calls = await readJsonLines<ModelCall>(path.join(dir, 'model-calls.jsonl'));
  const gateway = calls.map((c) => `${c.seq} ${c.path} ${c.status} ${c.outcome} ${c.reason ?? ''}`);
  const served = upstream.map((r) => `${r.n} ${r.path} ${r.status} response ${r.response}`);
  return `gateway:\n${gateway.join('\n')}\nupstream:\n${served.join('\n')}`;
}

export function agentConformance(p: AgentProfile): void {
  describe(`agent conformance: ${p.type} ${p.version}, its real binary against a logging upstream`, function () {
    this.timeout(900_000);
    const cases = conformanceCases(p);
    const caseOf = (name: ConformanceCase['name']) => cases.find((c) => c.name === name)!;
    let upstream: LoggingUpstream;
    let ws: ToyWorkspace;
    let validate: CliRun;
    let run: CliRun;
    // A skill of an agent that lists names alone reached the model when a request listed it.
    const listed = (calls: readonly LoggedCall[], s: { readonly path: string }) => {
      const isSkill = path.posix.basename(s.path).toLowerCase().startsWith('skill');
      const name = path.posix.basename(path.posix.dirname(s.path));
      return (
        isSkill && p.skillListed !== undefined && calls.some((c) => p.skillListed!(c.body, name))
      );
    };
    const runDir = (c: string) => path.join(ws.outDir, 'runs', 'task', c, 'run-01');
    const record = (c: string) => readJson<RunRecord>(path.join(runDir(c), 'run.json'));
    const stops = async (c: string) => {
      const r = await record(c);
      return Promise.all(r.stops.map((s) => readJson<StopRecord>(path.join(runDir(c), s))));
    };

    before(requireDocker);
    before(async () => {
      upstream = await startLoggingUpstream(
        Object.fromEntries(cases.map((c) => [c.name, c.script])),
      );
      const agent = (route: string) => ({
        type: p.type,
        version: p.version,
        ...(p.model ? { model_name: p.model } : {}),
        model: { url: upstream.url(route), key_env: E2E_KEY_ENV },
      });
      ws = await makeToyWorkspace({
        scripts: {},
        files: stagedFiles(cases),
        set: {
          agent: agent('loaded'),
          conditions: Object.fromEntries(
            cases.map((c) => [
              c.name,
              {
                agent: agent(c.name),
                stage: Object.fromEntries(c.staged.map((s) => [s.from, s.path])),
              },
            ]),
          ),
          baseline_condition: 'nothing',
          ...(p.resources ? { resources: p.resources } : {}),
          evals: [{ id: 'task', prompt: PROMPT, turns: [{ message: SECOND, phase: 'execution' }] }],
        },
      });
      const cli = ['--import', 'tsx', 'src/cli/main.ts'];
      validate = await execa('node', [...cli, 'validate', ws.evalSetFile], { reject: false });
      run = await evalrigRun(ws, { [E2E_KEY_ENV]: E2E_KEY }, ['--jobs', '2', '--allow-unloaded']);
    });
    after(async () => {
      await upstream?.close();
      // EVALRIG_KEEP_CONFORMANCE=1 keeps the campaign folder to read (its path is printed).
      if (process.env.EVALRIG_KEEP_CONFORMANCE === '1') console.log(`kept ${ws?.root}`);
      else await ws?.cleanup();
    });

    it('validate refuses each staged path the agent does not load, at its JSON pointer, naming where it should be', () => {
      expect(validate.exitCode, validate.stderr).to.equal(2);
      const unloaded = cases.flatMap((c) =>
        c.staged.filter((s) => !s.loads).map((s) => ({ c, s })),
      );
      for (const { c, s } of unloaded) {
        const pointer = `#/conditions/${c.name}/stage/${s.from.replace(/\//gu, '~1')}`;
        const line = validate.stdout.split('\n').find((l) => l.includes(pointer));
        expect(line, `${s.path}\n${validate.stdout}`).to.match(
          /: error: .*will not reach the model/u,
        );
      }
      const loadedFine = cases.flatMap((c) => c.staged.filter((s) => s.loads && !s.bare));
      for (const s of loadedFine)
        expect(validate.stdout).to.not.contain(s.from.replace(/\//gu, '~1'));
      expect(validate.stderr).to.contain('--allow-unloaded');
    });

    it('plays every case over two turns, the second resuming the session the first began', async () => {
      for (const c of cases) {
        const r = await record(c.name);
        if (c.name === 'faults' && p.fatal) {
          // The fault it does not go through ends its second turn: the run fails, saying why.
          expect(r, run.stderr).to.include({ status: 'failed', phase: 'agent' });
          expect(r.error).to.match(p.fatal.error);
          continue;
        }
        expect(r, `${c.name}: ${run.stderr}`).to.include({
          status: 'completed',
          turns_completed: 2,
        });
        const calls = upstream.calls(c.name);
        const last = calls[calls.length - 1]!;
        expect(last.body, `${c.name}: the second turn carries the first`)
          .to.contain(PROMPT)
          .and.contain(SECOND);
      }
    });

    it("each staged file: loaded exactly when its canary is in what the binary sent, as the agent's rule says", async () => {
      for (const c of cases) {
        const r = await record(c.name);
        const calls = upstream.calls(c.name);
        for (const s of c.staged) {
          const entry = r.treatment!.staged.find((e) => e.path === s.path);
          const truth = c.name !== 'echo' && (sent(calls, s.canary) || listed(calls, s));
          expect(entry, `${c.name}: ${s.path} has an entry`).to.not.equal(undefined);
          expect({
            path: s.path,
            truth,
            reached: entry!.reached,
            loads: entry!.loads,
          }).to.deep.equal({
            path: s.path,
            truth: s.loads,
            reached: s.loads,
            loads: s.loads,
          });
        }
      }
    });

    it('loaded: the condition reached the model in its run, the skill it used told apart from the one it did not', async () => {
      const r = await record('loaded');
      expect(r.treatment!.reached).to.equal(true);
      expect(r.measures).to.deep.include({ condition_reached: true, skill_used: true });
      const byPath = new Map(r.treatment!.staged.map((e) => [e.path, e]));
      expect(byPath.get(`${p.skillsDir}/conform-skill/SKILL.md`)).to.deep.include({
        used: true,
        first_call: 1,
      });
      expect(byPath.get(`${p.skillsDir}/conform-big/SKILL.md`)).to.deep.include({
        used: false,
        reached: true,
      });
    });

    it('nothing staged: no entry, the measures null; a failing command is failed, not refused', async () => {
      const r = await record('nothing');
      expect(r.treatment).to.deep.equal({ staged: [], reached: null, used: null });
      expect(r.measures).to.deep.include({ condition_reached: null, skill_used: null });
      const [first] = await stops('nothing');
      expect(first!.agent!.tool_calls).to.deep.include({ total: 1, refused: 0 });
    });

    it('a file the agent does not load, printed by its model through a tool, is not loaded', async () => {
      const c = caseOf('echo');
      const r = await record('echo');
      expect(
        sent(upstream.calls('echo'), c.staged[0]!.canary),
        'the tool result carried it',
      ).to.equal(true);
      expect(r.treatment!.staged[0]).to.deep.include({ reached: false, loads: false });
      expect(r.measures.condition_reached).to.equal(false);
      // What its shell answered, as the binary sent it: no eval set folder in the container.
      expect(sent(upstream.calls('echo'), "'/evalset': No such file"), 'no /evalset').to.equal(
        true,
      );
    });

    it('the figures are what the upstream served, turn by turn: requests, retries, tokens, tool calls, the final message', async () => {
      for (const c of cases) {
        for (const [i, stop] of (await stops(c.name)).entries()) {
          const a = stop.agent!;
          const truth = truthOf(upstream, c.name, c.script, a.witness!.calls!);
          const turn = `${c.name}, turn ${i + 1}`;
          expect(
            {
              turn,
              modelRequests: a.model_requests,
              retries: a.api_retries,
              inputTokens: a.tokens.input,
              outputTokens: a.tokens.output,
              toolCalls: a.tool_calls.total,
              finalMessage: a.final_message,
            },
            await callsSeen(runDir(c.name), upstream.standIn(c.name)),
          ).to.deep.equal({ turn, ...truth });
        }
        const r = await record(c.name);
        const why = (r.tampered ?? []).join('; ');
        expect(r.measures.record_tampered, `${c.name}: ${why}`).to.equal(false);
      }
      const cut = JSON.stringify(await stops('faults'));
      expect(cut, "the cut answer's tool call is in no figure").to.not.contain(
        'CUT-CALL-NEVER-RUN',
      );
    });

    it('the trajectory the viewer and the judge read shows each tool call with its input and its output', async () => {
      const steps = (await readTrajectory(runDir('loaded'))).steps;
      const tools = steps.filter((st) => st.kind === 'tool');
      const served = truthOf(upstream, 'loaded', caseOf('loaded').script, { first: 1, last: 1e9 });
      expect(tools.length, JSON.stringify(tools.map((t) => t.name))).to.equal(served.toolCalls);
      const env = tools.find((t) => t.input.includes('env | sort'));
      expect(env?.output ?? '', 'the env dump came back as its output').to.contain('PATH=');
      const said = steps.flatMap((st) => (st.kind === 'model' && st.text ? [st.text] : []));
      expect(said).to.include('I used the skill and looked around.');
    });

    it('a tool call the agent refused to run is counted refused, not done nor failed', async () => {
      const [first] = await stops('faults');
      const refused = p.refusedCommand === undefined ? 0 : 1;
      expect(first!.agent!.tool_calls).to.deep.include({ total: 1, refused, failed: 0 });
      const r = await record('faults');
      expect(r.agent!.totals.tool_calls_refused).to.equal(refused);
    });

    it('the key is added on the host: the upstream got it on every call, the container and the output never', async () => {
      const calls = upstream.calls();
      expect(calls.length).to.be.greaterThan(10);
      for (const h of keyHeaders(calls)) expect(h).to.contain(E2E_KEY);
      expect(
        sent(calls, E2E_KEY),
        'no request body (the env and config files the model printed)',
      ).to.equal(false);
      expect(sent(upstream.calls('loaded'), 'PATH='), 'the env dump reached the upstream').to.equal(
        true,
      );
      expect(await everythingWritten(ws.outDir)).to.not.contain(E2E_KEY);
    });

    it('the report says first, above the verdict, which conditions compared nothing', async () => {
      const md = await readFile(path.join(ws.outDir, 'report.md'), 'utf8');
      const head = md.split('\n').slice(0, 12).join('\n');
      const nearMiss =
        /near_miss: the staged .* reached the model in 0\/1 runs: nothing was compared/u;
      expect(head).to.match(nearMiss);
      expect(head).to.match(/echo: the staged .* reached the model in 0\/1 runs/u);
      const refusal = /faults: the agent refused 1 tool call\(s\) in 1\/1 runs/u;
      if (p.refusedCommand) expect(head).to.match(refusal);
      else expect(md).to.not.match(refusal);
      const loaded = md.split('\n').find((l) => l.startsWith('- loaded: '));
      expect(loaded).to.contain('the staged skill conform-skill loaded in 1/1 runs, used in 1/1');
      expect(loaded).to.contain('the staged skill conform-big loaded in 1/1 runs, used in 0/1');
      const html = await readFile(path.join(ws.outDir, 'report.html'), 'utf8');
      const at = html.indexOf('id="treatment"');
      expect(at).to.be.greaterThan(0).and.below(html.indexOf('id="verdict"'));
      expect(html).to.match(nearMiss);
      const bench = await readJson<BenchmarkFile>(path.join(ws.outDir, 'benchmark.json'));
      const warned = (bench.treatment_warnings ?? []).map((w) => [w.condition, w.reached, w.runs]);
      expect(warned).to.deep.include.members([
        ['near_miss', 0, 1],
        ['echo', 0, 1],
      ]);
      const reached = new Map(
        bench.conditions.map((c) => [c.condition, c.measures.condition_reached]),
      );
      expect(reached.get('loaded')).to.deep.include({ rate: 1, n: 1 });
    });
  });
}
