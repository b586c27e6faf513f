import { useId, useState, type FormEvent } from 'react';
import { useAccess } from '../access/use-access.js';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { fieldErrors, type FieldErrors } from '../shared/user-errors.js';

const VariablesQuery = graphql(`
  query ConsoleVariables {
    environmentVariables(first: 100) { totalCount nodes { key value locked secret updatedAt } }
  }
`);
const CreateVariable = graphql(`
  mutation ConsoleCreateVariable($input: EnvironmentVariableInput!) {
    createEnvironmentVariable(input: $input) { environmentVariable { key } userErrors { field code message } }
  }
`);
const DeleteVariable = graphql(`
  mutation ConsoleDeleteVariable($key: String!) { deleteEnvironmentVariable(key: $key) { deletedKey userErrors { field code message } } }
`);

const FIELDS = ['key', 'value'];
const NO_ERRORS: FieldErrors = { byField: {}, general: [] };

/** The account's environment variables: listed (secret values are never shown: the API does not return them), added, deleted. */
export function Variables() {
  const [{ data, error }, reexecute] = useQuery({ query: VariablesQuery });
  const [created, create] = useMutation(CreateVariable);
  const [, remove] = useMutation(DeleteVariable);
  const { can } = useAccess();
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [secret, setSecret] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [message, setMessage] = useState<string | null>(null);
  const ids = { key: useId(), value: useId() };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = await create({ input: { key: key.trim(), value, secret } });
    const userErrors = result.data?.createEnvironmentVariable.userErrors ?? [];
    if (result.error) return setErrors({ byField: {}, general: [result.error.message] });
    if (userErrors.length) return setErrors(fieldErrors(userErrors, FIELDS));
    setErrors(NO_ERRORS);
    setMessage(`Added ${key.trim()}.`);
    setKey('');
    setValue('');
    setSecret(false);
    reexecute({ requestPolicy: 'network-only' });
  }

  async function del(variableKey: string) {
    const result = await remove({ key: variableKey });
    const problems = result.error ? [result.error.message] : (result.data?.deleteEnvironmentVariable.userErrors ?? []).map((e) => e.message);
    setMessage(problems.length ? `Could not delete ${variableKey}: ${problems.join(' ')}` : `Deleted ${variableKey}.`);
    reexecute({ requestPolicy: 'network-only' });
  }

  const errorOf = (field: string) => errors.byField[field]?.join(' ');
  return (
    <section aria-labelledby="variables-title">
      <h1 id="variables-title">Environment variables</h1>
      {error && !data && <ErrorNotice error={error} />}
      {message && <p role="status" className="muted">{message}</p>}
      {data && (data.environmentVariables.nodes.length === 0 ? <p className="muted">No variables yet.</p> : (
        <table className="card" aria-label="Variables">
          <thead><tr><th scope="col">Key</th><th scope="col">Value</th><th scope="col">Locked</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {data.environmentVariables.nodes.map((v) => (
              <tr key={v.key} data-variable={v.key}>
                <td className="mono">{v.key}</td>
                <td className="mono">{v.secret ? <span className="muted">secret (write-only)</span> : v.value}</td>
                <td>{v.locked ? 'yes' : 'no'}</td>
                <td>{can('write') && <button type="button" className="button button--small" aria-label={`Delete variable ${v.key}`} onClick={() => del(v.key)}>Delete</button>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      {can('write') && <form className="card" onSubmit={submit} noValidate aria-labelledby="new-variable-title">
        <h2 id="new-variable-title">Add a variable</h2>
        {errors.general.length > 0 && <div className="form-error" role="alert">{errors.general.map((m) => <p key={m}>{m}</p>)}</div>}
        <div className="field-row">
          <div className="field">
            <label htmlFor={ids.key}>Key</label>
            <input id={ids.key} value={key} onChange={(e) => setKey(e.target.value)} aria-invalid={errorOf('key') ? true : undefined} aria-describedby={errorOf('key') ? `${ids.key}-error` : undefined} />
            {errorOf('key') && <p id={`${ids.key}-error`} className="field-error" role="alert" data-error-for="key">{errorOf('key')}</p>}
          </div>
          <div className="field field--grow">
            <label htmlFor={ids.value}>Value</label>
            <input id={ids.value} type={secret ? 'password' : 'text'} autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)}
              aria-invalid={errorOf('value') ? true : undefined} aria-describedby={errorOf('value') ? `${ids.value}-error` : undefined} />
            {errorOf('value') && <p id={`${ids.value}-error`} className="field-error" role="alert" data-error-for="value">{errorOf('value')}</p>}
          </div>
        </div>
        <label className="checkbox"><input type="checkbox" checked={secret} onChange={(e) => setSecret(e.target.checked)} /> Secret (never shown again once saved)</label>
        <div className="actions"><button type="submit" className="button button--primary" disabled={created.fetching}>Add variable</button></div>
      </form>}
    </section>
  );
}
