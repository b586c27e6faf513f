/**
 * Reads a server-sent event stream, handing each message's `data` (parsed JSON) to `onData` until
 * it returns true or the stream ends; resolves `'ended'` when the stream ended first.
 */
export async function readSseData(body: ReadableStream<Uint8Array>, onData: (data: unknown) => boolean | void): Promise<'stopped' | 'ended'> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'ended';
      buffer += decoder.decode(value, { stream: true });
      const messages = buffer.split('\n\n');
      buffer = messages.pop()!;
      for (const m of messages) {
        const data = m.split('\n').find((l) => l.startsWith('data: '));
        if (data && onData(JSON.parse(data.slice(6))) === true) return 'stopped';
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
