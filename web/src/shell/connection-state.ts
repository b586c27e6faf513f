/**
 * The live socket as the console shows it: `connecting` until first connected, `connected`,
 * `reconnecting` after it dropped (until it is back), `stopped` when the server refused it for good
 * (the key was revoked, say) and only a reload can help.
 */
export type ConnectionPhase = 'connecting' | 'connected' | 'reconnecting' | 'stopped';

/** What the console knows of its live socket: the phase, and how often it came back after a drop. */
export interface ConnectionSnapshot {
  phase: ConnectionPhase;
  /** Incremented each time the socket is back after a drop: screens re-read what they show then. */
  reconnects: number;
}

/** The socket's events fed in, a snapshot read out (React's useSyncExternalStore shape). */
export interface ConnectionState {
  snapshot(): ConnectionSnapshot;
  subscribe(listener: () => void): () => void;
  onConnected(): void;
  /** The socket closed; `code` 1000 is the console's own normal close, not a drop. */
  onClosed(code: number | undefined): void;
  onStopped(): void;
}

/** A connection state starting at `connecting`. */
export function createConnectionState(): ConnectionState {
  let current: ConnectionSnapshot = { phase: 'connecting', reconnects: 0 };
  const listeners = new Set<() => void>();
  const set = (next: ConnectionSnapshot) => {
    if (next.phase === current.phase && next.reconnects === current.reconnects) return;
    current = next;
    for (const listener of [...listeners]) listener();
  };
  return {
    snapshot: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onConnected() {
      if (current.phase === 'stopped') return;
      set({ phase: 'connected', reconnects: current.phase === 'reconnecting' ? current.reconnects + 1 : current.reconnects });
    },
    onClosed(code) {
      if (current.phase === 'stopped' || code === 1000) return;
      // A first attempt that fails counts as a drop too: what the screen read over HTTP may have failed with it.
      set({ phase: 'reconnecting', reconnects: current.reconnects });
    },
    onStopped() {
      set({ phase: 'stopped', reconnects: current.reconnects });
    },
  };
}
