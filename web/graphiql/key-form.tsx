import { useState, type FormEvent } from 'react';
import type { Credentials } from '../src/shell/credentials.js';

/** Props of KeyForm. */
export interface KeyFormProps {
  /** The stored credentials when changing them, shown as the starting values. */
  initial: Credentials | null;
  onSubmit(credentials: Credentials): void;
  /** Given when there are credentials to go back to. */
  onCancel?: () => void;
}

/** The API key and optional account id GraphiQL sends with every operation. */
export function KeyForm({ initial, onSubmit, onCancel }: KeyFormProps) {
  const [apiKey, setApiKey] = useState(initial?.apiKey ?? '');
  const [accountId, setAccountId] = useState(initial?.accountId ?? '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (apiKey.trim() === '') return;
    onSubmit({ apiKey: apiKey.trim(), accountId: accountId.trim() || undefined });
  };

  return (
    <main className="lookout-key-form">
      <h1>Lookout GraphQL</h1>
      <p>
        GraphiQL sends your API key as <code>Authorization: Bearer …</code> over HTTP and in the graphql-ws
        <code> connection_init</code>. It stays in this browser (shared with the <a href="/">console</a>).
      </p>
      <form onSubmit={submit}>
        <label htmlFor="graphiql-api-key">API key</label>
        <input
          id="graphiql-api-key"
          type="password"
          autoComplete="off"
          required
          autoFocus
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
        />
        <label htmlFor="graphiql-account-id">Account id (optional: only for a key of several accounts)</label>
        <input id="graphiql-account-id" type="text" autoComplete="off" value={accountId} onChange={(e) => setAccountId(e.target.value)} />
        <div className="lookout-key-form-actions">
          <button type="submit">Open GraphiQL</button>
          {onCancel && (
            <button type="button" onClick={onCancel}>
              Cancel
            </button>
          )}
        </div>
      </form>
      <p>
        Other tools: the <a href="/docs">REST API reference</a>.
      </p>
    </main>
  );
}
