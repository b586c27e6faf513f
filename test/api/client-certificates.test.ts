import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { createTestCa, type Pem, type TestCa } from '../support/mtls-target.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PASSPHRASE = 'correct horse battery staple';

/** The base64 lines of a PEM: any of them in an answer would be a leak of the key. */
const pemLines = (pem: string) => pem.split('\n').filter((l) => l && !l.startsWith('-----'));

describe.each(BACKENDS)('client certificates over REST ($name)', (backend) => {
  let s: TestServer;
  let ca: TestCa;
  let plain: Pem;
  let encrypted: Pem;
  let other: Pem;

  beforeAll(async () => {
    ca = await createTestCa();
    [s, plain, encrypted, other] = await Promise.all([
      startTestServer({ backend }), ca.issueClient('plain'), ca.issueClient('encrypted', PASSPHRASE), ca.issueClient('other'),
    ]);
  });
  afterAll(async () => s?.close());

  const count = async () => (await s.lookout.store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM client_certificates'))[0]!.n;

  it('creates, reads, lists and deletes a certificate, never answering its key or passphrase', async () => {
    const created = await s.a.request('POST', '/v1/client-certificates', {
      host: 'API.Example.com', cert: encrypted.cert, key: encrypted.key, passphrase: PASSPHRASE, ca: ca.cert,
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String), host: 'api.example.com', cert: encrypted.cert, ca: ca.cert, created_at: expect.any(String), updated_at: null,
    });
    const id = created.body.id as string;

    const read = await s.a.request('GET', `/v1/client-certificates/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const list = await s.a.request('GET', '/v1/client-certificates');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([created.body]);
    expect(list.headers.get('content-range')).toBe('0-0/1');

    for (const answer of [created, read, list]) {
      expect(answer.text).not.toContain(PASSPHRASE);
      for (const line of pemLines(encrypted.key)) expect(answer.text).not.toContain(line);
    }

    expect((await s.a.request('DELETE', `/v1/client-certificates/${id}`)).status).toBe(204);
    expect((await s.a.request('GET', `/v1/client-certificates/${id}`)).status).toBe(404);
    expect((await s.a.request('DELETE', `/v1/client-certificates/${id}`)).status).toBe(404);
  });

  it('pages the list oldest first with the total in Content-Range', async () => {
    const ids: string[] = [];
    for (const host of ['one.page.test', 'two.page.test', 'three.page.test']) {
      ids.push((await s.a.request('POST', '/v1/client-certificates', { host, cert: plain.cert, key: plain.key })).body.id);
    }
    const second = await s.a.request('GET', '/v1/client-certificates?page=2&limit=2');
    expect(second.body.map((c: { id: string }) => c.id)).toEqual([ids[2]]);
    expect(second.headers.get('content-range')).toBe('2-2/3');
    expect((await s.a.request('GET', '/v1/client-certificates?limit=101')).status).toBe(400);
    for (const id of ids) await s.a.request('DELETE', `/v1/client-certificates/${id}`);
  });

  describe('bad input gets a 400 naming the key and writes nothing', () => {
    it.each<[string, () => Record<string, unknown>, string[]]>([
      ['no body fields at all', () => ({}), ['host', 'cert', 'key']],
      ['a host that is a URL', () => ({ host: 'https://api.example.com/x', cert: plain.cert, key: plain.key }), ['host']],
      ['a host with a port', () => ({ host: 'api.example.com:8443', cert: plain.cert, key: plain.key }), ['host']],
      ['a certificate that is not PEM', () => ({ host: 'a.example', cert: 'hello', key: plain.key }), ['cert']],
      ['a key that is not PEM', () => ({ host: 'a.example', cert: plain.cert, key: 'hello' }), ['key']],
      ['the key of another certificate', () => ({ host: 'a.example', cert: plain.cert, key: other.key }), ['key']],
      ['an encrypted key without its passphrase', () => ({ host: 'a.example', cert: encrypted.cert, key: encrypted.key }), ['passphrase']],
      ['an encrypted key with a wrong passphrase', () => ({ host: 'a.example', cert: encrypted.cert, key: encrypted.key, passphrase: 'nope' }), ['passphrase']],
      ['a CA that is not PEM', () => ({ host: 'a.example', cert: plain.cert, key: plain.key, ca: 'hello' }), ['ca']],
      ['a certificate that is a number', () => ({ host: 'a.example', cert: 42, key: plain.key }), ['cert']],
    ])('%s', async (_name, body, keys) => {
      const before = await count();
      const res = await s.a.request('POST', '/v1/client-certificates', body());
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', validation: { source: 'payload' } });
      expect(res.body.validation.keys).toEqual(keys);
      for (const line of [...pemLines(plain.key), ...pemLines(encrypted.key), ...pemLines(other.key)]) expect(res.text).not.toContain(line);
      expect(res.text).not.toContain(PASSPHRASE);
      expect(await count()).toBe(before);
    });

    it('answers a malformed id with a 400 naming it', async () => {
      const res = await s.a.request('GET', '/v1/client-certificates/not-a-uuid');
      expect(res.status).toBe(400);
      expect(res.body.validation).toMatchObject({ source: 'params', keys: ['id'] });
    });
  });

  it('refuses a second certificate for the same host with 409, whatever its case', async () => {
    const first = await s.a.request('POST', '/v1/client-certificates', { host: 'dup.example.test', cert: plain.cert, key: plain.key });
    expect(first.status).toBe(201);
    const again = await s.a.request('POST', '/v1/client-certificates', { host: 'DUP.example.test.', cert: other.cert, key: other.key });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ statusCode: 409, error: 'Conflict' });
    // Another account may use the same host.
    const theirs = await s.b.request('POST', '/v1/client-certificates', { host: 'dup.example.test', cert: other.cert, key: other.key });
    expect(theirs.status).toBe(201);
    await s.a.request('DELETE', `/v1/client-certificates/${first.body.id}`);
    await s.b.request('DELETE', `/v1/client-certificates/${theirs.body.id}`);
  });

  it('keeps each account\'s certificates to itself', async () => {
    const mine = (await s.a.request('POST', '/v1/client-certificates', { host: 'mine.example.test', cert: plain.cert, key: plain.key })).body;
    expect((await s.b.request('GET', `/v1/client-certificates/${mine.id}`)).status).toBe(404);
    expect((await s.b.request('DELETE', `/v1/client-certificates/${mine.id}`)).status).toBe(404);
    const theirs = await s.b.request('GET', '/v1/client-certificates');
    expect(theirs.body).toEqual([]);
    expect(theirs.headers.get('content-range')).toBe('*/0');
    expect((await s.a.request('GET', `/v1/client-certificates/${mine.id}`)).status).toBe(200);
    await s.a.request('DELETE', `/v1/client-certificates/${mine.id}`);
  });

  it('describes its routes with operation ids, and no answer schema has room for the key', async () => {
    const doc = (await s.raw('GET', '/openapi.json')).body;
    expect(doc.paths['/v1/client-certificates'].get.operationId).toBe('listClientCertificates');
    expect(doc.paths['/v1/client-certificates'].post.operationId).toBe('createClientCertificate');
    expect(doc.paths['/v1/client-certificates/{id}'].get.operationId).toBe('getClientCertificate');
    expect(doc.paths['/v1/client-certificates/{id}'].delete.operationId).toBe('deleteClientCertificate');
    const created = JSON.stringify(doc.paths['/v1/client-certificates'].post.responses['201']);
    expect(created).not.toMatch(/"(key|passphrase)"/);
  });
});
