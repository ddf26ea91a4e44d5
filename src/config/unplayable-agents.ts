/**
 * Agent CLIs people ask for that evalrig cannot play, each with the reason, said at
 * validation instead of "unknown agent type". Every figure evalrig gives comes from the run's
 * model gateway; an agent that reaches its model only through its vendor's own service cannot
 * be put behind one, and one that npm cannot install alone cannot be put in the agents cache.
 *
 * Plain data with no imports, beside agent-kinds.ts. docs/agents.md lists the same.
 */

/** What one unplayable agent is, and why it is refused. */
export interface UnplayableAgent {
  /** What people call it. */
  readonly name: string;
  /** Its npm package. */
  readonly package: string;
  /** Why evalrig cannot play it, in a clause that follows "it cannot be played: ". */
  readonly reason: string;
}

/** By the type a user would write for it. */
export const UNPLAYABLE_AGENTS: Readonly<Record<string, UnplayableAgent>> = {
  amp: {
    name: 'Amp',
    package: '@sourcegraph/amp',
    reason:
      'it logs in to its vendor\'s service and sends its model calls there; it has no setting for a model endpoint (its "mode" picks the model), so no gateway can witness them',
  },
  auggie: {
    name: 'Auggie',
    package: '@augmentcode/auggie',
    reason:
      "it needs a login to its vendor's service (auggie login or AUGMENT_SESSION_AUTH) before any turn and sends its model calls there; it has no setting for a model endpoint",
  },
  crush: {
    name: 'Crush',
    package: '@charmland/crush',
    reason:
      "its npm package holds no binary: its install script downloads one from its vendor's release site, which an agents cache filled from the npm registry alone cannot do",
  },
};
