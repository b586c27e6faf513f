import { describe, expect, it } from 'vitest';
import { createConnectionState } from '../../../web/src/shell/connection-state.js';

describe('the console connection state', () => {
  it('is connecting, then connected, without counting the first connection as a reconnect', () => {
    const state = createConnectionState();
    expect(state.snapshot()).toEqual({ phase: 'connecting', reconnects: 0 });
    state.onConnected();
    expect(state.snapshot()).toEqual({ phase: 'connected', reconnects: 0 });
  });

  it('says reconnecting after a drop, stays so through failed attempts, and counts one reconnect once back', () => {
    const state = createConnectionState();
    const seen: string[] = [];
    state.subscribe(() => seen.push(`${state.snapshot().phase}:${state.snapshot().reconnects}`));
    state.onConnected();
    state.onClosed(1001);
    state.onClosed(1006);
    state.onClosed(1006);
    state.onConnected();
    expect(seen).toEqual(['connected:0', 'reconnecting:0', 'connected:1']);
  });

  it('does not take the console closing its own socket (1000) for a drop', () => {
    const state = createConnectionState();
    state.onConnected();
    state.onClosed(1000);
    expect(state.snapshot().phase).toBe('connected');
  });

  it('treats a first attempt that fails as a drop: the screen re-reads once connected', () => {
    const state = createConnectionState();
    state.onClosed(undefined);
    expect(state.snapshot().phase).toBe('reconnecting');
    state.onConnected();
    expect(state.snapshot()).toEqual({ phase: 'connected', reconnects: 1 });
  });

  it('stays stopped once the server refused the socket for good', () => {
    const state = createConnectionState();
    state.onConnected();
    state.onStopped();
    state.onConnected();
    state.onClosed(1006);
    expect(state.snapshot().phase).toBe('stopped');
  });

  it('stops telling a listener that unsubscribed', () => {
    const state = createConnectionState();
    let calls = 0;
    const unsubscribe = state.subscribe(() => calls++);
    state.onConnected();
    unsubscribe();
    state.onClosed(1001);
    expect(calls).toBe(1);
  });
});
