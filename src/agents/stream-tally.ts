import {
  claimPush,
  MAX_NAMES,
  NAME_CAP,
  str,
  type StreamClaim,
  type TurnSummary,
} from './stream.js';

/**
 * What every stream parser counts the same way: tool calls by name (and which failed, by the
 * agent's own call id), the texts and ids the stream says the model gave (its claim), and the
 * lines that start and end a turn. The parsers of the Node and Bun agents fill it.
 */
export class StreamTally {
  readonly claim = {
    answerIds: [] as string[],
    texts: [] as string[],
    toolCallIds: [] as string[],
    stated: [] as TurnSummary['tokens'][],
  };
  terminals = 0;
  starts = 0;
  total = 0;
  failed = 0;
  private readonly byName = new Map<string, { count: number; failed: number }>();
  private readonly names = new Map<string, string>();

  /** A tool call the stream shows; `modelId`: the model's own id for it (claimed), if it has one. */
  tool(name: unknown, localId: unknown, modelId: string | null = null): void {
    const n = str(name, NAME_CAP) ?? '?';
    const id = str(localId, 200);
    if (id !== null && this.names.size < 100_000) this.names.set(id, n);
    claimPush(this.claim.toolCallIds, modelId);
    this.total++;
    const entry =
      this.byName.get(n) ?? (this.byName.size < MAX_NAMES ? { count: 0, failed: 0 } : undefined);
    if (entry) {
      entry.count++;
      this.byName.set(n, entry);
    }
  }

  /** The result of the call the agent numbered `localId` came back as a failure. */
  toolFailed(localId: unknown): void {
    this.failed++;
    const name = this.names.get(String(localId));
    const entry = name === undefined ? undefined : this.byName.get(name);
    if (entry) entry.failed++;
  }

  text(t: string | null): void {
    claimPush(this.claim.texts, t);
  }

  toolCalls(): TurnSummary['toolCalls'] {
    return { total: this.total, failed: this.failed, byName: Object.fromEntries(this.byName) };
  }

  claimOf(listedSkills: readonly string[] | null = null): StreamClaim {
    return { ...this.claim, terminals: this.terminals, starts: this.starts, listedSkills };
  }
}
