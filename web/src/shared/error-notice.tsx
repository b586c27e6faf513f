import type { CombinedError } from 'urql';
import { refusalText } from './refusal-text.js';

/** A failed query, said plainly: network trouble, a refused key or ended session, a role that may not, or the API's own messages. */
export function ErrorNotice({ error }: { error: CombinedError }) {
  const status = (error.response as Response | undefined)?.status;
  const codes = error.graphQLErrors.map((e) => (e.extensions?.attributes as { code?: string } | undefined)?.code ?? e.extensions?.code);
  const message = status === 401 || codes.includes('UNAUTHENTICATED')
    ? 'You are no longer signed in: the API key was revoked or your session ended. Sign out and sign in again.'
    : codes.includes('ROLE_FORBIDS') ? refusalText({ status: 403, code: 'ROLE_FORBIDS', message: '' })
    : error.networkError ? `The server could not be reached: ${error.networkError.message}` : error.graphQLErrors.map((e) => e.message).join(' ');
  return <p className="form-error" role="alert">{message}</p>;
}
