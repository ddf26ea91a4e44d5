/** What the treatment check counts of a condition's runs, for its warnings and its summary. */

/** One staged file of a condition, counted over its runs. */
export interface StagedCount {
  kind: 'skill' | 'instructions';
  path: string;
  name: string | null;
  loads: boolean | null;
  runs: number;
  reached: number;
  undecided: number;
  /** Why the first undecided run could not be decided. */
  reason: string | null;
  /** A skill: runs where the model used it, and runs whose record says either way. */
  used: number;
  useKnown: number;
}

/** One condition's runs that staged something. */
export interface ConditionCount {
  runs: number;
  reached: number;
  undecided: number;
  /** Runs where the model used a staged skill, and runs whose record says either way. */
  used: number;
  useKnown: number;
  staged: Map<string, StagedCount>;
}
