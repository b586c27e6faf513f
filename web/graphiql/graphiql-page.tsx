import { useState } from 'react';
import { loadCredentials, saveCredentials, type Credentials } from '../src/shell/credentials.js';
import { KeyForm } from './key-form.js';
import { LookoutGraphiql } from './lookout-graphiql.js';

/**
 * GraphiQL at /graphql: asks for the API key (and account) once, keeps them where the console does
 * (localStorage `lookout.apiKey` and `lookout.accountId`, so signing in to either signs in to both),
 * then opens GraphiQL authenticated with them.
 */
export function GraphiqlPage() {
  const [credentials, setCredentials] = useState<Credentials | null>(() => loadCredentials(window.localStorage));
  const [changing, setChanging] = useState(false);

  if (!credentials || changing) {
    return (
      <KeyForm
        initial={credentials}
        onSubmit={(next) => {
          saveCredentials(window.localStorage, next);
          setCredentials(loadCredentials(window.localStorage));
          setChanging(false);
        }}
        onCancel={credentials ? () => setChanging(false) : undefined}
      />
    );
  }
  return <LookoutGraphiql credentials={credentials} onChangeKey={() => setChanging(true)} />;
}
