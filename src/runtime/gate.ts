/*
 * The creation gate, apart from container.ts: a connection holds one, and container.ts
 * takes the connection's type, so the two files would otherwise import each other.
 */

/** A creation refused because the gate closed (a signal is being handled). */
export class GateClosedError extends Error {
  constructor() {
    super('no container is created once evalrig is stopping');
  }
}

/**
 * Lets a signal's clean-up stop container creations: once closed, no creation
 * starts, and the ones in flight can be awaited so that a removal by label
 * that follows sees every container.
 */
export class CreationGate {
  private open = true;
  private readonly inFlight = new Set<Promise<unknown>>();

  get closed(): boolean {
    return !this.open;
  }

  close(): void {
    this.open = false;
  }

  /** Runs a creation through the gate; refused once closed. */
  pass<T>(create: () => Promise<T>): Promise<T> {
    if (!this.open) return Promise.reject(new GateClosedError());
    const p = create();
    this.inFlight.add(p);
    const forget = (): void => void this.inFlight.delete(p);
    p.then(forget, forget);
    return p;
  }

  /** Resolves when every creation in flight has settled. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}
