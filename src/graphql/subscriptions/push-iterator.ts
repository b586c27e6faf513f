/** An async iterator fed by `push`: what a push source (the bus, a fan-out) looks like to `for await`. */
export interface PushIterator<T> extends AsyncIterableIterator<T> {
  push(value: T): void;
  /** Ends the iteration after the values already pushed. */
  end(): void;
  /** Values pushed and not yet taken. */
  readonly size: number;
}

/**
 * A push iterator; `onReturn` runs once when the consumer stops (return) or the iterator ends, with
 * the values pushed and never taken.
 */
export function createPushIterator<T>(onReturn: (discarded: T[]) => void = () => {}): PushIterator<T> {
  const queue: T[] = [];
  let head = 0;
  let waiting: ((r: IteratorResult<T>) => void) | null = null;
  let done = false;
  let returned = false;
  const finish = () => {
    if (returned) return;
    returned = true;
    const discarded = queue.slice(head);
    queue.length = 0;
    head = 0;
    onReturn(discarded);
  };
  const take = (): T => {
    const value = queue[head]!;
    queue[head++] = undefined as T;
    // Compact now and then rather than shift(): shift is O(n) on long queues.
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
    return value;
  };
  const it: PushIterator<T> = {
    push(value) {
      if (done) return;
      if (waiting) {
        const w = waiting;
        waiting = null;
        w({ value, done: false });
      } else queue.push(value);
    },
    end() {
      if (done) return;
      done = true;
      if (waiting && head >= queue.length) {
        const w = waiting;
        waiting = null;
        finish();
        w({ value: undefined, done: true });
      }
    },
    get size() {
      return queue.length - head;
    },
    next() {
      if (head < queue.length) return Promise.resolve({ value: take(), done: false });
      if (done) {
        finish();
        return Promise.resolve({ value: undefined, done: true });
      }
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    return() {
      done = true;
      finish();
      if (waiting) {
        const w = waiting;
        waiting = null;
        w({ value: undefined, done: true });
      }
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(err?: unknown) {
      void it.return!();
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    },
    [Symbol.asyncIterator]() {
      return it;
    },
  };
  return it;
}
