import { useEffect, useMemo } from 'react';
import { GraphiQL } from 'graphiql';
import type { Credentials } from '../src/shell/credentials.js';
import { storedTheme } from '../src/shell/use-theme.js';
import { createLookoutFetcher } from './create-lookout-fetcher.js';
import { queryFromHash } from './query-from-hash.js';

/** What a first visit shows in the editor (later visits get their own last operation back). */
const DEFAULT_QUERY = `# Lookout's GraphQL API. Ctrl-Enter runs the operation; Ctrl-Space completes;
# the book icon on the left opens the schema's documentation.
{
  viewer { name plan }
  checks(first: 10) {
    totalCount
    nodes { id name checkType activated }
  }
}
`;

/** Props of LookoutGraphiql. */
export interface LookoutGraphiqlProps {
  credentials: Credentials;
  onChangeKey(): void;
}

/** The last four characters of a key: enough to tell keys apart, not enough to use one. */
function keyHint(apiKey: string): string {
  return apiKey.length > 8 ? `…${apiKey.slice(-4)}` : '…';
}

/** GraphiQL authenticated with `credentials`, under a bar naming the key in use. */
export function LookoutGraphiql({ credentials, onChangeKey }: LookoutGraphiqlProps) {
  const { fetcher, wsClient } = useMemo(() => createLookoutFetcher(credentials), [credentials]);
  useEffect(() => () => void wsClient.dispose(), [wsClient]);
  // A link such as /graphql#query=%7B%20viewer%20%7B%20name%20%7D%20%7D opens with that operation.
  const initialQuery = useMemo(() => queryFromHash(window.location.hash), []);
  // The console's theme (its toggle, else the system's), not a second setting of GraphiQL's own.
  const theme = useMemo(() => storedTheme(), []);

  return (
    <div className="lookout-graphiql">
      <header className="lookout-graphiql-bar">
        <strong>Lookout GraphQL</strong>
        <span>
          Key {keyHint(credentials.apiKey)}
          {credentials.accountId ? `, account ${credentials.accountId}` : ''}
        </span>
        <button type="button" onClick={onChangeKey}>
          Change key
        </button>
        <nav aria-label="Lookout">
          <a href="/">Console</a>
          <a href="/docs">REST API reference</a>
        </nav>
      </header>
      <div className="lookout-graphiql-editor">
        <GraphiQL fetcher={fetcher} forcedTheme={theme} defaultQuery={DEFAULT_QUERY} {...(initialQuery ? { initialQuery } : {})} />
      </div>
    </div>
  );
}
