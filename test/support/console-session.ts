import type { TestResponse, TestServer } from './test-server.js';

/** A person signed in to the console: their cookie and CSRF token, sent as the console sends them. */
export interface SessionClient {
  cookie: string;
  csrf: string;
  /** The session's view as signing in answered it. */
  view: any;
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse<T>>;
}

/** The `name=value` of a Set-Cookie header. */
export function cookieOf(res: TestResponse): string {
  const set = res.headers.get('set-cookie') ?? '';
  return set.split(';')[0] ?? '';
}

/** A client of an answer that set a session cookie (sign-in, accepted invitation). */
export function sessionClient(s: TestServer, res: TestResponse): SessionClient {
  const cookie = cookieOf(res);
  const csrf = res.body.csrfToken as string;
  return {
    cookie,
    csrf,
    view: res.body,
    request: (method, path, body, headers = {}) => s.raw(method, path, {
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { cookie, 'x-lookout-csrf': csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    }),
  };
}

/** Signs in with an email and password (and TOTP code); fails the test unless it works. */
export async function signIn(s: TestServer, email: string, password: string, totp?: string): Promise<SessionClient> {
  const res = await s.raw('POST', '/v1/session', { body: JSON.stringify({ email, password, ...(totp ? { totp } : {}) }), headers: { 'content-type': 'application/json' } });
  if (res.status !== 200) throw new Error(`sign-in as ${email} answered ${res.status}: ${res.text}`);
  return sessionClient(s, res);
}

/** The answer of a sign-in attempt, whatever it is. */
export function trySignIn(s: TestServer, body: Record<string, unknown>): Promise<TestResponse> {
  return s.raw('POST', '/v1/session', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
}
