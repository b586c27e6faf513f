import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from './__generated__/gql.js';
import type { ApiCheckInput } from './__generated__/graphql.js';
import { ErrorNotice } from './error-notice.js';
import { Link } from './link.js';
import { API_CHECK_FORM_FIELDS, apiCheckFormValues, apiCheckInput, EMPTY_API_CHECK_FORM, type ApiCheckFormValues, type AssertionLike } from './lib/api-check-form.js';
import { fieldErrors, type FieldErrors } from './lib/user-errors.js';
import { navigate } from './use-route.js';

const CheckFormQuery = graphql(`
  query ConsoleCheckForm($id: ID!, $editing: Boolean!) {
    locations { region name }
    check(id: $id) @include(if: $editing) {
      id name activated frequency locations tags checkType
      ... on ApiCheck { degradedResponseTime maxResponseTime request { method url assertions { source property comparison target regex } } }
    }
  }
`);

const CreateApiCheck = graphql(`
  mutation ConsoleCreateApiCheck($input: ApiCheckInput!) {
    createApiCheck(input: $input) { check { id name } userErrors { field code message } }
  }
`);
const UpdateApiCheck = graphql(`
  mutation ConsoleUpdateApiCheck($id: ID!, $input: ApiCheckInput!) {
    updateApiCheck(id: $id, input: $input) { check { id name } userErrors { field code message } }
  }
`);

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];
const NO_ERRORS: FieldErrors = { byField: {}, general: [] };

/** Creates an API check, or edits one (`id`); the API's userErrors show on the fields they name. */
export function CheckForm({ id }: { id?: string }) {
  const editing = id !== undefined;
  const [{ data, error }] = useQuery({ query: CheckFormQuery, variables: { id: id ?? '', editing } });
  const [values, setValues] = useState<ApiCheckFormValues>(EMPTY_API_CHECK_FORM);
  const [existingAssertions, setExistingAssertions] = useState<readonly AssertionLike[]>([]);
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [create, createApiCheck] = useMutation(CreateApiCheck);
  const [update, updateApiCheck] = useMutation(UpdateApiCheck);
  const loadedCheck = data?.check;
  useEffect(() => {
    if (loadedCheck && 'request' in loadedCheck && loadedCheck.request) {
      setValues(apiCheckFormValues(loadedCheck as Parameters<typeof apiCheckFormValues>[0]));
      setExistingAssertions(loadedCheck.request.assertions);
    }
  }, [loadedCheck]);
  const firstLocation = data?.locations[0]?.region;
  useEffect(() => {
    // A new check runs somewhere by default: the first location offered.
    if (!editing && firstLocation) setValues((v) => (v.locations.length ? v : { ...v, locations: [firstLocation] }));
  }, [editing, firstLocation]);

  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading…</p>;
  if (editing && (!loadedCheck || loadedCheck.checkType !== 'API')) {
    return <section><h1>Cannot edit this check here</h1><p>The console edits API checks; this one is {loadedCheck ? `a ${loadedCheck.checkType} check` : 'not found'}. <Link to="/checks">Back to the checks</Link>.</p></section>;
  }
  const busy = create.fetching || update.fetching;
  const set = <K extends keyof ApiCheckFormValues>(key: K, value: ApiCheckFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = apiCheckInput(values, existingAssertions) as ApiCheckInput;
    const result = editing ? await updateApiCheck({ id: id!, input }) : await createApiCheck({ input });
    if (result.error) {
      setErrors({ byField: {}, general: [result.error.message] });
      return;
    }
    const payload = result.data && ('updateApiCheck' in result.data ? result.data.updateApiCheck : 'createApiCheck' in result.data ? result.data.createApiCheck : null);
    if (!payload) return;
    if (payload.userErrors.length) {
      const found = fieldErrors(payload.userErrors, API_CHECK_FORM_FIELDS);
      setErrors(found);
      // Take the reader to the first problem.
      const first = API_CHECK_FORM_FIELDS.find((f) => found.byField[f]);
      document.querySelector<HTMLElement>(first ? `[data-field="${first}"]` : '.form-error')?.focus();
      return;
    }
    setErrors(NO_ERRORS);
    if (payload.check) navigate(`/checks/${encodeURIComponent(payload.check.id)}`);
  }

  return (
    <section aria-labelledby="form-title">
      <p><Link to={editing ? `/checks/${encodeURIComponent(id!)}` : '/checks'}>← {editing ? 'Back to the check' : 'Checks'}</Link></p>
      <h1 id="form-title">{editing ? `Edit ${loadedCheck?.name}` : 'New API check'}</h1>
      <form className="card check-form" onSubmit={submit} noValidate>
        {errors.general.length > 0 && <div className="form-error" role="alert" tabIndex={-1}>{errors.general.map((m) => <p key={m}>{m}</p>)}</div>}
        <Field label="Name" field="name" errors={errors}>
          {(props) => <input {...props} value={values.name} onChange={(e) => set('name', e.target.value)} />}
        </Field>
        <div className="field-row">
          <Field label="Method" field="request.method" errors={errors}>
            {(props) => <select {...props} value={values.method} onChange={(e) => set('method', e.target.value)}>{METHODS.map((m) => <option key={m}>{m}</option>)}</select>}
          </Field>
          <Field label="URL" field="request.url" errors={errors} grow>
            {(props) => <input {...props} type="url" inputMode="url" placeholder="https://example.com/health" value={values.url} onChange={(e) => set('url', e.target.value)} />}
          </Field>
        </div>
        <Field label="Expected status code" field="request.assertions" errors={errors} hint="Leave empty for no status assertion.">
          {(props) => <input {...props} inputMode="numeric" value={values.expectedStatus} onChange={(e) => set('expectedStatus', e.target.value)} />}
        </Field>
        <div className="field-row">
          <Field label="Frequency (minutes)" field="frequency" errors={errors}>
            {(props) => <input {...props} type="number" min={0} value={values.frequency} onChange={(e) => set('frequency', e.target.value)} />}
          </Field>
          <Field label="Degraded after (ms)" field="degradedResponseTime" errors={errors}>
            {(props) => <input {...props} type="number" min={0} value={values.degradedResponseTime} onChange={(e) => set('degradedResponseTime', e.target.value)} />}
          </Field>
          <Field label="Fails after (ms)" field="maxResponseTime" errors={errors}>
            {(props) => <input {...props} type="number" min={0} value={values.maxResponseTime} onChange={(e) => set('maxResponseTime', e.target.value)} />}
          </Field>
        </div>
        <Field label="Tags" field="tags" errors={errors} hint="Separated by commas.">
          {(props) => <input {...props} value={values.tags} onChange={(e) => set('tags', e.target.value)} />}
        </Field>
        <LocationsField locations={data.locations} selected={values.locations} errors={errors.byField.locations} onChange={(locations) => set('locations', locations)} />
        <label className="checkbox"><input type="checkbox" checked={values.activated} onChange={(e) => set('activated', e.target.checked)} /> Run on schedule (activated)</label>
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={busy}>{busy ? 'Saving…' : editing ? 'Save check' : 'Create check'}</button>
        </div>
      </form>
    </section>
  );
}

interface FieldProps {
  id: string;
  name: string;
  'data-field': string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A labelled control with its hint and the API's messages about it (announced, and tied to the input). */
function Field({ label, field, errors, hint, grow, children }: { label: string; field: string; errors: FieldErrors; hint?: string; grow?: boolean; children(props: FieldProps): ReactNode }) {
  const id = useId();
  const messages = errors.byField[field] ?? [];
  const describedBy = [hint ? `${id}-hint` : '', messages.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${grow ? ' field--grow' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, name: field, 'data-field': field, 'aria-invalid': messages.length ? true : undefined, 'aria-describedby': describedBy })}
      {hint && <p id={`${id}-hint`} className="hint">{hint}</p>}
      {messages.length > 0 && <p id={`${id}-error`} className="field-error" role="alert" data-error-for={field}>{messages.join(' ')}</p>}
    </div>
  );
}

function LocationsField({ locations, selected, errors, onChange }: { locations: readonly { region: string; name: string }[]; selected: readonly string[]; errors?: string[]; onChange(locations: string[]): void }) {
  const id = useId();
  return (
    <fieldset className="field" aria-describedby={errors?.length ? `${id}-error` : undefined} aria-invalid={errors?.length ? true : undefined} data-field="locations" tabIndex={-1}>
      <legend>Locations</legend>
      <div className="checkbox-grid">
        {locations.map((location) => (
          <label key={location.region} className="checkbox">
            <input type="checkbox" checked={selected.includes(location.region)}
              onChange={(e) => onChange(e.target.checked ? [...selected, location.region] : selected.filter((r) => r !== location.region))} />
            {location.name} <span className="muted">({location.region})</span>
          </label>
        ))}
      </div>
      {errors?.length ? <p id={`${id}-error`} className="field-error" role="alert" data-error-for="locations">{errors.join(' ')}</p> : null}
    </fieldset>
  );
}
