import { createSourceEventStream, execute, type ExecutionArgs, type ExecutionResult } from 'graphql';

/**
 * graphql-js `subscribe`, except that each event is executed with a context of its own,
 * `contextOf(event)`, rather than the one the subscription started with (which its `subscribe`
 * resolvers still get): link fields load through loaders that live as long as the event, shared by
 * every execution of that event (see createEventContexts), not through one cache that would grow for
 * the life of the subscription.
 */
export async function subscribePerEvent(
  args: ExecutionArgs,
  contextOf: (event: unknown) => unknown,
): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source as ExecutionResult;
  const events = (source as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  const mapped: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]: () => mapped,
    async next() {
      const next = await events.next();
      if (next.done) return { done: true, value: undefined };
      return { done: false, value: await execute({ ...args, rootValue: next.value, contextValue: contextOf(next.value) }) };
    },
    return: async () => {
      await events.return?.();
      return { done: true, value: undefined };
    },
    throw: async (err: unknown) => {
      await events.return?.();
      throw err;
    },
  };
  return mapped;
}
