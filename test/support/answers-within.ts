/**
 * Resolves with `promise`, or fails the test when it has not settled after `ms`: a generous bound on
 * something that should take milliseconds (a stalled event loop takes seconds to minutes), not a timing claim.
 */
export async function answersWithin<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} got no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
