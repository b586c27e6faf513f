/** An entry of the due queue: when, and which check (with the version that scheduled it). */
export interface Due {
  /** When it fires. */
  dueMs: number;
  /** The slot it fires for, when it fires ahead of it (the scheduler's lead); else dueMs. */
  slotMs?: number;
  checkId: string;
  version: number;
}

/** A binary min-heap on `dueMs`: O(log n) push/pop for tens of thousands of scheduled checks. */
export class DueQueue {
  private readonly items: Due[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Due | undefined {
    return this.items[0];
  }

  push(item: Due): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (a[parent]!.dueMs <= a[i]!.dueMs) break;
      [a[parent], a[i]] = [a[i]!, a[parent]!];
      i = parent;
    }
  }

  pop(): Due | undefined {
    const a = this.items;
    if (a.length === 0) return undefined;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]!.dueMs < a[m]!.dueMs) m = l;
        if (r < a.length && a[r]!.dueMs < a[m]!.dueMs) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}
