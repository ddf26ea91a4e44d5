/**
 * The model scripts Factory Droid plays in its integration test (and the fixtures they record):
 * its shell tool `Execute` wants a summary and a risk level with its reason beside the command.
 */
import type { ModelScript } from '../../../src/model-stand-in/index.js';

const execute = (command: string) => ({
  tool_use: {
    name: 'Execute',
    input: {
      summary: 'Run the step now',
      command,
      riskLevelReason: 'It is local.',
      riskLevel: 'low',
    },
  },
});

/**
 * Turn 1 writes a file (past its watchdog's first look, 2 s in) and commits it (two calls: Droid
 * Shield scans a commit alone); turn 2 a push Droid Shield refuses (no remote); turn 3 a 400.
 */
export const SCRIPT: ModelScript = {
  responses: [
    {
      content: [
        { text: 'I will write the notes.' },
        execute('sleep 3 && printf offline > notes.txt && git add notes.txt'),
      ],
      usage: { input_tokens: 1000, output_tokens: 20 },
    },
    {
      content: [execute('git commit -qm notes')],
      usage: { input_tokens: 1100, output_tokens: 10 },
    },
    {
      content: [{ text: 'Done: notes.txt holds the word offline.' }],
      usage: { input_tokens: 1200, output_tokens: 9, cache_read_input_tokens: 800 },
    },
    { content: [execute('git push')], usage: { input_tokens: 1300, output_tokens: 8 } },
    {
      content: [{ text: 'The push failed: there is no remote.' }],
      usage: { input_tokens: 1400, output_tokens: 9 },
    },
  ],
};

/** One turn through a 429, a stream cut mid-way and a 503, then a commit Droid Shield refuses. */
export const FAULTS: ModelScript = {
  responses: [
    { error: { status: 429, retry_after: 0 } },
    {
      content: [{ text: 'Part of an answer.' }, execute('echo CUT-CALL-NEVER-RUN')],
      stream_error: { type: 'overloaded_error' },
    },
    {
      content: [{ text: 'Committing.' }, execute('git add -A && git commit -qm refused')],
      usage: { input_tokens: 610, output_tokens: 21 },
    },
    { error: { status: 503 } },
    {
      content: [{ text: 'The faults are behind us.' }],
      usage: { input_tokens: 720, output_tokens: 6 },
    },
  ],
};

/** A command of its deny list in a first turn; then a session's second turn runs it too. */
export const DENIED: ModelScript = {
  responses: [
    { content: [execute('chown -R nobody /nonexistent-evalrig')] },
    { content: [{ text: 'Nothing to do yet.' }] },
    { content: [execute('chown -R nobody /nonexistent-evalrig')] },
    { content: [{ text: 'I will not run it.' }] },
  ],
};
