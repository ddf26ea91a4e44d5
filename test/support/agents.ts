// What the agent integration tests share: where the agent works in its container, the git
// identity it commits with, the adapter's install from the cache and one turn's options.
import { expect } from 'chai';
import {
  CLAUDE_CODE_BIN,
  CLAUDE_CODE_PACKAGE,
  CLAUDE_CODE_VERIFIED_VERSION,
  CODEX_BIN,
  CODEX_PACKAGE,
  CODEX_VERIFIED_VERSION,
  codexBinaryPath,
  ensureAgentInstalled,
  type AgentInstall,
  type TurnPlay,
} from '../../src/agents/index.js';
import { startContainer, type DockerClient, type RunContainer } from '../../src/runtime/index.js';

export const HOME = '/tmp/home';
export const WORK = '/tmp/work';
/** Set on every exec, as the base image has no git identity for uid 1000. */
export const IDENTITY = {
  GIT_AUTHOR_NAME: 'agent',
  GIT_AUTHOR_EMAIL: 'agent@evalrig.invalid',
  GIT_COMMITTER_NAME: 'agent',
  GIT_COMMITTER_EMAIL: 'agent@evalrig.invalid',
};

/** The real Claude Code, installed into the cache (once; CI runs scripts/agents.sh first). */
export function installClaudeCode(): Promise<AgentInstall> {
  return ensureAgentInstalled({
    package: CLAUDE_CODE_PACKAGE,
    version: process.env.EVALRIG_CLAUDE_CODE_VERSION ?? CLAUDE_CODE_VERIFIED_VERSION,
    bin: CLAUDE_CODE_BIN,
  });
}

/** The real Codex static binary, installed into the cache like Claude Code. */
export function installCodex(): Promise<AgentInstall> {
  return ensureAgentInstalled({
    package: CODEX_PACKAGE,
    version: process.env.EVALRIG_CODEX_VERSION ?? CODEX_VERIFIED_VERSION,
    bin: CODEX_BIN,
    binaryPath: codexBinaryPath(),
  });
}

/** A container as a campaign runs it: the main process is not the agent's user; execs are uid 1000. */
export function startAgentContainer(
  client: DockerClient,
  options: Pick<Parameters<typeof startContainer>[1], 'image' | 'labels' | 'binds'>,
): Promise<RunContainer> {
  return startContainer(client, { ...options, user: '65534:65534', execUser: '1000:1000' });
}

/** Makes HOME and a repository at WORK with one empty commit on main. */
export async function initWork(container: Pick<RunContainer, 'exec'>): Promise<void> {
  const init = await container.exec(
    [
      'sh',
      '-c',
      `mkdir -p ${HOME} ${WORK} && cd ${WORK} && git init -q -b main && git commit -q --allow-empty -m init`,
    ],
    { env: IDENTITY },
  );
  expect(init.exitCode, init.stderr).to.equal(0);
}

/** One turn's options: `prompt` played in WORK with the identity, two minutes at most. */
export function turnPlay(prompt: string, maxTranscriptBytes = 4 * 1024 * 1024): TurnPlay {
  return {
    prompt,
    home: HOME,
    workingDir: WORK,
    timeoutMs: 120_000,
    maxTranscriptBytes,
    env: IDENTITY,
  };
}
