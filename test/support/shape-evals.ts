/**
 * The evals a real-agent campaign adds to replay the shapes the model APIs document beyond
 * text and tool calls (the model stand-in's script, docs/agents.md): what the real binary
 * does with each, and what the host's flight record makes of it. Played in the adapters' one
 * e2e campaign (test/e2e/claude-code.test.ts, codex.test.ts), beside the witness evals.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readRunFlight } from '../../src/campaign-folder/index.js';
import type { ModelScript } from '../../src/model-stand-in/index.js';
import type { AdapterCampaign, ShellTool } from './adapter-campaign.js';

const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output });

export const THOUGHT = 'The tree comes first.';
export const SHAPED_FINAL = 'Finished after the pause.';
export const REFUSAL_TEXT = 'I will not help with that.';
export const REASONED_FINAL = 'Finished, reasoning summarised.';
export const AFTER_ERROR_EVENT = 'The answer after the error event and the 529.';
export const AFTER_REFUSAL = 'The answer after the refusal.';
export const AFTER_401 = 'The answer after two 401s.';

/** States limits in every answer's headers: high enough never to hold a call back. */
const RATE_LIMITS = { requests_per_minute: 4000, tokens_per_minute: 2_000_000 };

/** Claude Code: thinking, redacted thinking, pings, a server tool paused with pause_turn. */
function thinkingScript(shell: ShellTool): ModelScript {
  return {
    rate_limits: RATE_LIMITS,
    responses: [
      {
        content: [
          { thinking: THOUGHT },
          { redacted_thinking: 'EmwKAhgBEgy3va3pzixRedactedByTheStandIn' },
          { text: 'Writing the file.' },
          { tool_use: { name: shell.name, input: { [shell.field]: 'echo shaped > shaped.txt' } } },
        ],
        pings: true,
        usage: usage(800, 30),
      },
      {
        content: [{ server_tool_use: { name: 'web_search', input: { query: 'evalrig' } } }],
        stop_reason: 'pause_turn',
        usage: usage(900, 10),
      },
      { content: [{ text: SHAPED_FINAL }], usage: usage(950, 8) },
    ],
  };
}

/** Codex: a reasoning item with its summary before a command, under stated rate limits. */
function reasoningScript(shell: ShellTool): ModelScript {
  return {
    rate_limits: RATE_LIMITS,
    responses: [
      {
        content: [
          { thinking: THOUGHT },
          { text: 'Writing the file.' },
          { tool_use: { name: shell.name, input: { [shell.field]: 'echo shaped > shaped.txt' } } },
        ],
        usage: usage(800, 30),
      },
      { content: [{ text: REASONED_FINAL }], usage: usage(900, 8) },
    ],
  };
}

const one = (status: 401 | 403 | 413): ModelScript => ({
  responses: [{ error: { status } }],
});

/** The scripts each agent plays, by eval id. */
function scripts(agent: 'claude-code' | 'codex', shell: ShellTool): Record<string, ModelScript> {
  if (agent === 'claude-code') {
    return {
      'shape-thinking': thinkingScript(shell),
      'shape-refusal': {
        responses: [
          { error: { status: 404 } },
          { content: [{ text: REFUSAL_TEXT }], stop_reason: 'refusal', usage: usage(300, 6) },
          { content: [{ text: AFTER_REFUSAL }], usage: usage(320, 5) },
        ],
      },
      'shape-401': one(401),
      'shape-403': one(403),
      'shape-413': one(413),
    };
  }
  return {
    'shape-reasoning': reasoningScript(shell),
    'shape-error-event': {
      responses: [
        {
          content: [{ text: 'part' }],
          usage: usage(400, 5),
          stream_error: {
            type: 'server_error',
            event: 'error',
            message: 'An error occurred while processing your request.',
          },
        },
        { error: { status: 529, retry_after: 0 } },
        { content: [{ text: AFTER_ERROR_EVENT }], usage: usage(420, 7) },
      ],
    },
    'shape-401': {
      responses: [
        { error: { status: 401 } },
        { error: { status: 401 } },
        { content: [{ text: AFTER_401 }], usage: usage(300, 6) },
      ],
    },
  };
}

/** The files and evals a campaign adds to replay the shapes to `agent`. */
export function shapeEvals(agent: 'claude-code' | 'codex', shell: ShellTool) {
  const all = scripts(agent, shell);
  return {
    files: Object.fromEntries(
      Object.entries(all).map(([id, s]) => [`model/${id}.json`, `${JSON.stringify(s, null, 2)}\n`]),
    ),
    evals: Object.keys(all).map((id) => ({
      id,
      prompt: 'Write shaped.txt.',
      model_script: `model/${id}.json`,
    })),
  };
}

/** Two sets of extra evals as one. */
export function bothEvals(
  a: { files: Record<string, string>; evals: object[] },
  b: { files: Record<string, string>; evals: object[] },
) {
  return { files: { ...a.files, ...b.files }, evals: [...a.evals, ...b.evals] };
}

/** A run's model calls as [status, outcome, reason or stop reason]. */
async function callsOf(campaign: AdapterCampaign, id: string) {
  const flight = await readRunFlight(campaign.runDir(id));
  const rows = flight.calls.map((c) => [c.status, c.outcome, c.reason ?? c.stopReason]);
  return { flight, rows };
}

/** The run's transcript of turn 1 (the agent's own stream, kept whole). */
async function transcript(campaign: AdapterCampaign, id: string): Promise<string> {
  return readFile(path.join(campaign.runDir(id), 'turns/turn-01.jsonl'), 'utf8');
}

/**
 * An API error Claude Code does not retry: the run fails in phase agent with the agent's
 * words, one call logged with the documented type, the request id reaching the agent.
 */
export async function expectClaudeApiError(
  campaign: AdapterCampaign,
  id: string,
  status: number,
  type: string,
  words: RegExp,
): Promise<void> {
  const record = await campaign.record(id);
  expect(record, campaign.run.stderr).to.include({ status: 'failed', phase: 'agent' });
  expect(record.error).to.match(words);
  const { rows } = await callsOf(campaign, id);
  expect(rows).to.deep.equal([[status, 'error', type]]);
  const stream = await transcript(campaign, id);
  expect(stream).to.contain('"request_id":"req_standin_000001"');
  expect(stream).to.contain(`"api_error_type":"${type}"`);
}

export { callsOf, transcript };
