/** Credentials (REST headers) of a connected socket, as graphql-ws `connection_init` gave them. */
type Headers = Record<string, string>;

/**
 * The operation contexts events are executed in: ONE per event and account, shared by every execution
 * of that event for that account (the identical subscriptions the fan-out already shares, and the
 * subscriptions selecting differently), so the batching loaders of that context make one REST call per
 * kind for the event, not one per subscriber. Built with the credentials of a socket of the account
 * still connected (the account's sockets are all authenticated as it, and an execution outlives the
 * socket that started it); `fallback` when none is left. The contexts live as long as their event:
 * they are held by the event object (a WeakMap), which every subscriber of the account receives.
 */
export function createEventContexts(contextFromHeaders: (headers: Headers) => object) {
  const sockets = new Map<string, Set<Headers>>();
  const byEvent = new WeakMap<object, Map<string, object>>();

  return {
    /** Registers the credentials of an authenticated socket of `accountId`; returns their removal. */
    addSocket(accountId: string, headers: Headers): () => void {
      let set = sockets.get(accountId);
      if (!set) sockets.set(accountId, (set = new Set()));
      // A copy: one socket's headers object is one entry, however many times it is registered.
      const entry = { ...headers };
      set.add(entry);
      return () => {
        set.delete(entry);
        if (set.size === 0 && sockets.get(accountId) === set) sockets.delete(accountId);
      };
    },
    /** The context `event` executes in for `accountId` (the same object for every execution of it). */
    contextOf(accountId: string, event: object, fallback: Headers): object {
      let contexts = byEvent.get(event);
      if (!contexts) byEvent.set(event, (contexts = new Map()));
      let ctx = contexts.get(accountId);
      if (!ctx) {
        const connected = sockets.get(accountId);
        const headers = connected && connected.size > 0 ? [...connected].at(-1)! : fallback;
        ctx = { ...contextFromHeaders(headers), accountId };
        contexts.set(accountId, ctx);
      }
      return ctx;
    },
  };
}
