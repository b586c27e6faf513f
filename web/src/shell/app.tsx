import { useMemo, useState } from 'react';
import { Provider } from 'urql';
import { createConsoleClient } from './console-client.js';
import { ConnectionContext } from './connection-context.js';
import { clearCredentials, loadCredentials, saveCredentials, type Credentials } from './credentials.js';
import { Shell } from './shell.js';
import { SignIn } from './sign-in.js';
import './styles.css';

/** The console's root: sign-in until credentials are stored, then the screens. */
export function App() {
  const [credentials, setCredentials] = useState<Credentials | null>(() => loadCredentials(localStorage));
  // One client (and socket) per sign-in; closed on sign-out, not on unmount, which StrictMode simulates.
  const connection = useMemo(() => (credentials ? createConsoleClient(credentials) : null), [credentials]);

  if (!credentials || !connection) {
    return <SignIn onSignedIn={(signedIn) => {
      saveCredentials(localStorage, signedIn);
      setCredentials(signedIn);
    }} />;
  }
  return (
    <Provider value={connection.client}>
      <ConnectionContext.Provider value={connection.connection}>
        <Shell onSignOut={() => {
          connection.dispose();
          clearCredentials(localStorage);
          setCredentials(null);
        }} />
      </ConnectionContext.Provider>
    </Provider>
  );
}
