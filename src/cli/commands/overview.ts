/**
 * What `evalrig --help` lists of each verb, without loading it: loading every verb's file
 * (Docker clients, the report, the judge) took most of a second, ten times `node -e 0`. Each
 * verb's file owns its words; this is their summary as the help prints it, and a test holds
 * it to the help of the verbs loaded (test/unit/cli/overview.test.ts).
 */
export const OVERVIEW: Readonly<
  Record<string, { readonly term: string; readonly summary: string }>
> = {
  doctor: {
    term: 'doctor [options]',
    summary:
      "check each engine a campaign would run on (what answers, its CPUs and memory, the images, a locked-down container, and what to fix) and each agent's pinned version against the newest npm has",
  },
  image: { term: 'image', summary: 'the test image runs start from' },
  run: {
    term: 'run [options] <evals.json>',
    summary: 'play every (eval, condition, run) of an eval set and record what the agent did',
  },
  validate: {
    term: 'validate [options] <evals.json>',
    summary: 'check an eval set and list every problem with its JSON pointer',
  },
  plan: {
    term: 'plan [options] <evals.json>',
    summary:
      'what a campaign will take, before anything starts: runs, turns, tokens, cost, wall time, and the runs a difference needs',
  },
  report: {
    term: 'report <out>',
    summary:
      'recompute benchmark.json, BASELINE.md, report.md and report.html from the stored runs of a campaign folder (runs nothing)',
  },
  compare: {
    term: 'compare [options] <out-a> <out-b>',
    summary:
      'compare two finished campaign folders: every measure side by side, B − A with its 95% interval, and what differs in their provenance (runs nothing)',
  },
  grade: {
    term: 'grade [options] <out>',
    summary:
      "grade a campaign's runs against their expectations with the eval set's judge: only runs whose inputs, expectations, rubric or judge (its model, a script's bytes) changed, or with no or an errored grading, call it (every run with --force); then recompute the report",
  },
  view: {
    term: 'view [options] <out>',
    summary:
      'serve a campaign folder on 127.0.0.1 (read-only): its runs step by step, conditions side by side, live while evalrig run plays into it, and review notes',
  },
  export: {
    term: 'export [options] <out>',
    summary:
      'one table of a campaign folder for a notebook or a spreadsheet: a row per run (default), per model call or per stop, as CSV or JSON lines (runs nothing)',
  },
  tasks: { term: 'tasks', summary: 'eval sets made from a codebase' },
  'try-script': {
    term: 'try-script [options] <script> <out>',
    summary:
      "dry-run a model script against a campaign's recorded requests: which response each would get, and whether by its when, in order or from a catch-all (runs nothing)",
  },
};
