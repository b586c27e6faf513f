import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

const check = (name: string) => JSON.stringify({ name, request: { url: 'https://shop.test/' } });

describe('request bodies sent compressed (Content-Encoding)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { bodyLimit: 1024 * 1024 } });
  });
  afterAll(async () => s?.close());

  const post = async (body: Buffer | string, encoding: string) => {
    const res = await request(`${s.url}/v1/checks/api`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.a.apiKey}`, 'x-checkly-account': s.a.accountId, 'content-type': 'application/json', 'content-encoding': encoding },
      body,
    });
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, any> };
  };
  const checks = async () => (await s.a.request('GET', '/v1/checks?limit=100')).body.length as number;

  it.each([
    ['gzip', (b: string) => gzipSync(b)],
    ['deflate', (b: string) => deflateSync(b)],
    ['br', (b: string) => brotliCompressSync(b)],
    ['identity', (b: string) => Buffer.from(b)],
  ])('accepts a %s body as if it were sent plain', async (encoding, encode) => {
    const res = await post(encode(check(`Sent ${encoding}`)), encoding);
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(`Sent ${encoding}`);
  });

  it.each([
    ['not gzip at all', 400, Buffer.from('{"name": "plain but labelled gzip"}'), 'gzip'],
    ['gzip cut short', 400, gzipSync(check('Truncated')).subarray(0, 20), 'gzip'],
    ['an encoding it does not know', 415, Buffer.from(check('Compressed?')), 'compress'],
    ['two encodings stacked', 415, gzipSync(gzipSync(check('Twice'))), 'gzip, gzip'],
  ] as const)('answers %s with a %i in the conventions shape, writing nothing', async (_name, status, body, encoding) => {
    const before = await checks();
    const res = await post(body, encoding);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
    expect(await checks()).toBe(before);
  });

  it('never answers 5xx to random bytes labelled gzip, and writes only what it answers 201 to', async () => {
    const before = await checks();
    let created = 0;
    await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.boolean(), async (bytes, wrap) => {
      // Half the cases are valid gzip of random bytes: the JSON parser then has its say.
      const res = await post(wrap ? gzipSync(bytes) : Buffer.from(bytes), 'gzip');
      expect(res.status).toBeLessThan(500);
      if (res.status === 201) created++;
    }), { numRuns: 60 });
    expect(await checks()).toBe(before + created);
  });

  it('cuts a compression bomb off at the body limit with 413, counting inflated bytes', async () => {
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"name":"'), Buffer.alloc(64 * 1024 * 1024, 0x61), Buffer.from('"}')]));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = await checks();
    const res = await post(bomb, 'gzip');
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    expect(await checks()).toBe(before);
    // The server still answers.
    expect((await post(gzipSync(check('After the bomb')), 'gzip')).status).toBe(201);
  });
});
