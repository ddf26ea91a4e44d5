import path from 'node:path';

/** Where a campaign's files go under its output folder. */
export interface RunLayout {
  /** runs/<eval>/<condition>/run-NN */
  readonly dir: string;
  readonly runJson: string;
  readonly stopsDir: string;
  readonly turnsDir: string;
  readonly callsJsonl: string;
  /** The model gateway's log of the run (adapter agents): one line per model call. */
  readonly modelCallsJsonl: string;
  readonly diffPatch: string;
  /** The environment (work tree + local origin): work/<eval>/<condition>/run-NN */
  readonly envRoot: string;
  /** The host's own record of the environment (its seal), never mounted: <envRoot>/host */
  readonly hostDir: string;
  /** The run's sockets to the host (the gh recorder), mounted read only: <envRoot>/sock */
  readonly socketDir: string;
}

export function conditionsFile(outDir: string): string {
  return path.join(outDir, 'conditions.json');
}

export function runLayout(outDir: string, key: string): RunLayout {
  const dir = path.join(outDir, 'runs', key);
  return {
    dir,
    runJson: path.join(dir, 'run.json'),
    stopsDir: path.join(dir, 'stops'),
    turnsDir: path.join(dir, 'turns'),
    callsJsonl: path.join(dir, 'calls.jsonl'),
    modelCallsJsonl: path.join(dir, 'model-calls.jsonl'),
    diffPatch: path.join(dir, 'diff.patch'),
    envRoot: path.join(outDir, 'work', key),
    hostDir: path.join(outDir, 'work', key, 'host'),
    socketDir: path.join(outDir, 'work', key, 'sock'),
  };
}

export function stopFileName(turn: number): string {
  return `stop-${String(turn).padStart(2, '0')}.json`;
}

/** The patch against the baseline at a stop, beside its stop file (stops/stop-NN.patch). */
export function stopPatchName(turn: number): string {
  return `stop-${String(turn).padStart(2, '0')}.patch`;
}

export function turnOutputName(turn: number, stream: 'stdout' | 'stderr'): string {
  return `turn-${String(turn).padStart(2, '0')}.${stream}.txt`;
}

/** An adapter agent's whole stream of one turn, relative to the run folder. */
export function transcriptName(turn: number): string {
  return `turn-${String(turn).padStart(2, '0')}.jsonl`;
}

/** Where things are mounted inside a run's container. */
export const CONTAINER = {
  evalSetDir: '/evalset',
  workRoot: '/work',
  remoteRoot: '/remote',
  home: '/home/evalrig',
  /** The run's sockets to the host (read only). */
  socketDir: '/run/evalrig',
} as const;
