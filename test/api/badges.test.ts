import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const STYLES = ['flat', 'plastic', 'flat-square', 'for-the-badge', 'social'];

/** A light well-formedness check: every element opened is closed, in order, and nothing trails the root. */
function isWellFormedXml(text: string): boolean {
  const stack: string[] = [];
  const tag = /<(\/?)([a-zA-Z][\w:.-]*)((?:\s+[\w:.-]+="[^"]*")*)\s*(\/?)>/g;
  let last = 0;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    // Between tags only text may appear, with < and & escaped.
    if (/[<>]/.test(text.slice(last, m.index)) || /&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(text.slice(last, m.index))) return false;
    last = tag.lastIndex;
    const [, closing, name, , selfClosing] = m;
    if (selfClosing) continue;
    if (closing) {
      if (stack.pop() !== name) return false;
      if (stack.length === 0 && last !== text.length) return false;
    } else stack.push(name!);
  }
  return stack.length === 0 && last === text.length;
}

describe.each(BACKENDS)('badges API on $name', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend });
  });
  afterAll(async () => s?.close());

  const createCheck = async (client: TestClient, body: Record<string, unknown> = {}) => {
    const res = await client.request('POST', '/v1/checks/api', { name: 'Storefront', request: { url: 'https://shop.test' }, ...body });
    expect(res.status).toBe(201);
    return res.body as { id: string; name: string };
  };
  /** What the runner records after a run (check_statuses belongs to it; tests stand in for it here). */
  const recordStatus = async (checkId: string, accountId: string, st: { hasFailures?: boolean; hasErrors?: boolean; isDegraded?: boolean; longestRun?: number | null }) => {
    await s.lookout.store.db.query(
      `INSERT INTO check_statuses (check_id, account_id, name, has_failures, has_errors, is_degraded, longest_run, shortest_run)
       VALUES ($1, $2, 'x', $3, $4, $5, $6, $6)
       ON CONFLICT (check_id) DO UPDATE SET has_failures = $3, has_errors = $4, is_degraded = $5, longest_run = $6`,
      [checkId, accountId, st.hasFailures ?? false, st.hasErrors ?? false, st.isDegraded ?? false, st.longestRun ?? null],
    );
  };
  const statusCount = async () => (await s.lookout.store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM check_statuses'))[0]!.n;

  it('uses a well-formedness check that tells broken markup from sound markup', () => {
    expect(isWellFormedXml('<svg a="1"><g><text>x &amp; y</text></g><rect/></svg>')).toBe(true);
    for (const broken of ['<svg><g></svg>', '<svg></svg><svg></svg>', '<svg>a & b</svg>', '<svg><text>1 < 2</text></svg>', '<svg>']) {
      expect(isWellFormedXml(broken)).toBe(false);
    }
  });

  it.each(STYLES)('draws a check badge in the %s style as an SVG image that names the check', async (style) => {
    const check = await createCheck(s.a, { name: 'Checkout API' });
    const res = await s.a.request('GET', `/v1/badges/checks/${check.id}?style=${style}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.text.startsWith('<svg')).toBe(true);
    expect(isWellFormedXml(res.text)).toBe(true);
    // for-the-badge capitalises its text.
    expect(res.text.toLowerCase()).toContain('checkout api');
    expect(res.text.toLowerCase()).toContain('unknown');
  });

  it.each([
    ['no run yet', null, 'unknown'],
    ['a clean run', {}, 'passing'],
    ['a degraded run', { isDegraded: true }, 'degraded'],
    ['a failed run', { hasFailures: true }, 'failing'],
    ['an errored run', { hasErrors: true }, 'failing'],
  ])('says a check with %s is %s', async (_n, status, word) => {
    const check = await createCheck(s.a);
    if (status) await recordStatus(check.id, s.a.accountId, status);
    const res = await s.a.request('GET', `/v1/badges/checks/${check.id}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`aria-label="Storefront: ${word}"`);
  });

  it('escapes a check name that contains markup', async () => {
    const check = await createCheck(s.a, { name: 'A <b> & "c"' });
    const res = await s.a.request('GET', `/v1/badges/checks/${check.id}`);
    expect(res.text).toContain('A &lt;b&gt; &amp; &quot;c&quot;');
    expect(isWellFormedXml(res.text)).toBe(true);
  });

  it('shows the latest response time with responseTime=true, and unknown before the first run', async () => {
    const check = await createCheck(s.a);
    expect((await s.a.request('GET', `/v1/badges/checks/${check.id}?responseTime=true`)).text).toContain('aria-label="Storefront: unknown"');
    await recordStatus(check.id, s.a.accountId, { longestRun: 321 });
    expect((await s.a.request('GET', `/v1/badges/checks/${check.id}?responseTime=true`)).text).toContain('aria-label="Storefront: 321 ms"');
    expect((await s.a.request('GET', `/v1/badges/checks/${check.id}?responseTime=false`)).text).toContain('aria-label="Storefront: passing"');
  });

  it('changes the label colour with the theme', async () => {
    const check = await createCheck(s.a);
    const dark = await s.a.request('GET', `/v1/badges/checks/${check.id}?theme=dark`);
    const light = await s.a.request('GET', `/v1/badges/checks/${check.id}?theme=light`);
    const plain = await s.a.request('GET', `/v1/badges/checks/${check.id}?theme=default`);
    expect(dark.text).toContain('fill="#24292f"');
    expect(light.text).toContain('fill="#eeeeee"');
    expect(plain.text).toContain('fill="#555"');
  });

  it('draws a group badge with the worst status of its activated checks', async () => {
    const group = await s.a.request('POST', '/v2/check-groups', { name: 'Payments', locations: ['eu-west-1'] });
    const badge = async (query = '') => (await s.a.request('GET', `/v1/badges/groups/${group.body.id}${query}`)).text;
    expect(await badge()).toContain('aria-label="Payments: unknown"');

    const ok = await createCheck(s.a, { groupId: group.body.id });
    await recordStatus(ok.id, s.a.accountId, { longestRun: 90 });
    expect(await badge()).toContain('aria-label="Payments: passing"');

    const slow = await createCheck(s.a, { groupId: group.body.id });
    expect(await badge()).toContain('aria-label="Payments: unknown"');
    await recordStatus(slow.id, s.a.accountId, { isDegraded: true, longestRun: 4000 });
    expect(await badge()).toContain('aria-label="Payments: degraded"');
    expect(await badge('?responseTime=true')).toContain('aria-label="Payments: 4000 ms"');

    const broken = await createCheck(s.a, { groupId: group.body.id });
    await recordStatus(broken.id, s.a.accountId, { hasErrors: true, longestRun: 10 });
    expect(await badge()).toContain('aria-label="Payments: failing"');

    await s.a.request('PUT', `/v1/checks/api/${broken.id}`, { activated: false });
    expect(await badge()).toContain('aria-label="Payments: degraded"');
    const res = await s.a.request('GET', `/v1/badges/groups/${group.body.id}?style=for-the-badge&theme=dark`);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(isWellFormedXml(res.text)).toBe(true);
  });

  it('keeps badges apart between accounts', async () => {
    const check = await createCheck(s.b, { name: 'Secret check' });
    const group = await s.b.request('POST', '/v2/check-groups', { name: 'Secret group' });
    for (const path of [`/v1/badges/checks/${check.id}`, `/v1/badges/groups/${group.body.id}`]) {
      const res = await s.a.request('GET', path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
      expect(res.text).not.toContain('Secret');
    }
  });

  describe('bad input', () => {
    const bad: [string, string, string, string][] = [
      ['an unknown style', '/v1/badges/checks/{check}?style=round', 'query', 'style'],
      ['an unknown theme', '/v1/badges/checks/{check}?theme=blue', 'query', 'theme'],
      ['a responseTime that is no boolean', '/v1/badges/checks/{check}?responseTime=maybe', 'query', 'responseTime'],
      ['a non-UUID check id', '/v1/badges/checks/abc', 'params', 'checkId'],
      ['an unknown style on a group', '/v1/badges/groups/{group}?style=3d', 'query', 'style'],
      ['an unknown theme on a group', '/v1/badges/groups/{group}?theme=neon', 'query', 'theme'],
      ['a responseTime number on a group', '/v1/badges/groups/{group}?responseTime=2', 'query', 'responseTime'],
      ['a non-integer group id', '/v1/badges/groups/abc', 'params', 'groupId'],
      ['a group id of 0', '/v1/badges/groups/0', 'params', 'groupId'],
      ['a group id beyond 32 bits', '/v1/badges/groups/2147483648', 'params', 'groupId'],
    ];
    it.each(bad)('answers 400 JSON naming the key for %s, and writes nothing', async (_n, path, source, key) => {
      const check = await createCheck(s.a);
      const group = await s.a.request('POST', '/v2/check-groups', { name: 'G' });
      const before = await statusCount();
      const res = await s.a.request('GET', path.replace('{check}', check.id).replace('{group}', String(group.body.id)));
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String), validation: { source } });
      expect(res.body.validation.keys).toContain(key);
      expect(await statusCount()).toBe(before);
    });

    it.each([
      ['an unknown check', '/v1/badges/checks/{unknown}'],
      ['an unknown group', '/v1/badges/groups/2147480000'],
      ["another account's check", '/v1/badges/checks/{otherCheck}'],
      ["another account's group", '/v1/badges/groups/{otherGroup}'],
    ])('answers 404 JSON for %s', async (_n, path) => {
      const otherCheck = await createCheck(s.b);
      const otherGroup = await s.b.request('POST', '/v2/check-groups', { name: 'Theirs' });
      const res = await s.a.request('GET', path
        .replace('{unknown}', randomUUID()).replace('{otherCheck}', otherCheck.id).replace('{otherGroup}', String(otherGroup.body.id)));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
    });

    it('answers 401 JSON without an API key', async () => {
      const check = await createCheck(s.a);
      const res = await s.raw('GET', `/v1/badges/checks/${check.id}`);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    });
  });
});
