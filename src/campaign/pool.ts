/**
 * Runs `work` over `items` with at most `jobs` at once, in order of start.
 * Stops starting new items once `shouldStop()` says so; items already started
 * finish. Errors of `work` are the caller's to catch: a rejection rejects the pool.
 */
export async function runPool<T>(
  items: readonly T[],
  jobs: number,
  work: (item: T, index: number) => Promise<void>,
  shouldStop: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !shouldStop()) {
      const index = next++;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
}

/**
 * Like {@link runPool}, with a preparation stage that runs ahead: while `jobs`
 * items play, up to `lookahead` more are prepared (default `jobs`), so
 * preparation (host work) is off the critical path; 0 prepares each item only
 * when it is its turn. Items prepared but never played (the pool stopped)
 * are passed to `discard`.
 */
export async function runPipeline<T, P>(
  items: readonly T[],
  jobs: number,
  stages: {
    prepare: (item: T, index: number) => Promise<P>;
    play: (prepared: P, index: number) => Promise<void>;
    discard: (prepared: P) => Promise<void>;
  },
  shouldStop: () => boolean = () => false,
  lookahead: number = jobs,
): Promise<void> {
  const prepared = new Map<number, Promise<P>>();
  const ensure = (index: number): Promise<P> | undefined => {
    if (index >= items.length) return undefined;
    let p = prepared.get(index);
    if (!p) {
      p = stages.prepare(items[index] as T, index);
      prepared.set(index, p);
    }
    return p;
  };
  await runPool(
    items,
    jobs,
    async (_item, index) => {
      const mine = ensure(index) as Promise<P>;
      if (lookahead > 0) ensure(index + lookahead);
      const ready = await mine;
      prepared.delete(index);
      await stages.play(ready, index);
    },
    shouldStop,
  );
  // What was prepared ahead and never played.
  await Promise.all([...prepared.values()].map(async (p) => stages.discard(await p)));
}
