import { authHeaders, type Credentials } from './credentials.js';

/** The account a key signs in to, or why it cannot. */
export type Verification = { ok: true; accountName: string; accountId: string } | { ok: false; message: string };

/**
 * Asks the API who the credentials belong to before storing them, so a wrong key is told at once
 * rather than as a failed page later.
 */
export async function verifyCredentials(credentials: Credentials): Promise<Verification> {
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers: { ...authHeaders(credentials), 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
      body: JSON.stringify({ query: 'query Viewer { viewer { accountId name } }' }),
    });
  } catch {
    return { ok: false, message: 'The Lookout server could not be reached. Check that it is running and try again.' };
  }
  let body: { data?: { viewer?: { accountId: string; name: string } | null } | null; errors?: { message: string; extensions?: { code?: string } }[] } = {};
  try {
    body = await res.json();
  } catch {
    // A non-JSON answer: the status says enough.
  }
  const viewer = body.data?.viewer;
  if (res.ok && viewer) return { ok: true, accountName: viewer.name, accountId: viewer.accountId };
  const code = body.errors?.[0]?.extensions?.code;
  if (res.status === 401 || code === 'UNAUTHENTICATED') return { ok: false, message: 'That API key was not accepted. Check that you copied the whole key and that it has not been revoked, then try again.' };
  if (res.status === 403 || code === 'FORBIDDEN') return { ok: false, message: 'The key does not give access to that account. Check the account id, or leave it empty to use the key\'s own account.' };
  return { ok: false, message: body.errors?.[0]?.message ?? `Sign-in failed (HTTP ${res.status}).` };
}
