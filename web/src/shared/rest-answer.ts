/** A REST answer as the console uses it: the status, the JSON body, and a refusal's code and message. */
export interface RestAnswer<T = unknown> {
  ok: boolean;
  /** 0 when the server could not be reached. */
  status: number;
  body: T | null;
  /** `attributes.code` of a refusal (ROLE_FORBIDS, CSRF, INVALID_CREDENTIALS…), else null. */
  code: string | null;
  /** The server's own message of a refusal ('' when it gave none). */
  message: string;
}

/**
 * Sends one JSON request to the server serving the console, never throwing: network trouble is
 * status 0, so every caller says something in words instead of failing on an exception.
 */
export async function restRequest<T>(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<RestAnswer<T>> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { ...headers, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, body: null, code: 'NETWORK', message: '' };
  }
  let json: unknown = null;
  if (res.status !== 204) {
    try {
      json = await res.json();
    } catch {
      // A non-JSON answer (an older server's HTML page): the status says enough.
    }
  }
  const refusal = res.ok ? null : (json as { message?: unknown; code?: unknown; attributes?: { code?: unknown } } | null);
  const code = refusal ? (typeof refusal.attributes?.code === 'string' ? refusal.attributes.code : typeof refusal.code === 'string' ? refusal.code : null) : null;
  return { ok: res.ok, status: res.status, body: res.ok ? (json as T) : null, code, message: typeof refusal?.message === 'string' ? refusal.message : '' };
}
