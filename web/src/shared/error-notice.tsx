import type { CombinedError } from 'urql';

/** A failed query, said plainly: network trouble, a refused key, or the API's own messages. */
export function ErrorNotice({ error }: { error: CombinedError }) {
  const status = (error.response as Response | undefined)?.status;
  const message = status === 401 || error.graphQLErrors.some((e) => e.extensions?.code === 'UNAUTHENTICATED')
    ? 'The API key is no longer accepted. Sign out and sign in with a valid key.'
    : error.networkError ? `The server could not be reached: ${error.networkError.message}` : error.graphQLErrors.map((e) => e.message).join(' ');
  return <p className="form-error" role="alert">{message}</p>;
}
