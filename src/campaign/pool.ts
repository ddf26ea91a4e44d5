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
