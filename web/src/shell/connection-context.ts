import { createContext, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import { createConnectionState, type ConnectionSnapshot, type ConnectionState } from './connection-state.js';

/** The signed-in console's live socket state (a detached one outside the shell, e.g. in the sign-in form). */
export const ConnectionContext = createContext<ConnectionState>(createConnectionState());

/** The live socket's phase and reconnect count, re-rendering when they change. */
export function useConnection(): ConnectionSnapshot {
  const state = useContext(ConnectionContext);
  return useSyncExternalStore(state.subscribe, state.snapshot);
}

/** Calls `onReconnect` each time the live socket is back after a drop (not on the first connection). */
export function useOnReconnect(onReconnect: () => void): void {
  const { reconnects } = useConnection();
  const callback = useRef(onReconnect);
  callback.current = onReconnect;
  const seen = useRef(reconnects);
  useEffect(() => {
    if (reconnects === seen.current) return;
    seen.current = reconnects;
    callback.current();
  }, [reconnects]);
}
