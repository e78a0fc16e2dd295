// One lifecycle for everything the extension keeps alive: the disposables a part owns and the
// timers it starts end together, once, when the part is disposed. A timer never runs after that
// (a late tree refresh or status update would otherwise touch disposed emitters and items).
// No `vscode` import: anything with dispose() can be owned, and the lifecycle is unit-tested.

export interface Disposable {
  dispose(): unknown;
}

export class Owner implements Disposable {
  private readonly owned: Disposable[] = [];
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private ended = false;

  /** True once disposed. */
  get disposed(): boolean {
    return this.ended;
  }

  /** Takes `d` into this lifecycle (disposed at once when the owner already is). */
  own<T extends Disposable>(d: T): T {
    if (this.ended) d.dispose();
    else this.owned.push(d);
    return d;
  }

  /** Runs `run` after `ms`, unless the owner is disposed first; the returned function cancels it. */
  after(ms: number, run: () => void): () => void {
    if (this.ended) return () => undefined;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.ended) run();
    }, ms);
    this.timers.add(timer);
    return () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    };
  }

  dispose(): void {
    if (this.ended) return;
    this.ended = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    // Last in, first out: what was built on something goes before it. One failing dispose does
    // not keep the rest alive.
    for (const d of this.owned.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // already gone
      }
    }
  }
}
