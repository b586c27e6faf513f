import { useEffect, useState, type FormEvent } from 'react';
import { useAccess } from '../access/use-access.js';
import { WriteFieldset } from '../access/write-fieldset.js';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { Field } from '../checks/check-form.js';
import { DeleteActions } from '../shared/delete-actions.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { Link } from '../shared/link.js';
import { label } from '../incidents/incident-form.js';
import {
  describeRepeat, EMPTY_MAINTENANCE_FORM, MAINTENANCE_FORM_FIELDS, maintenanceFormValues, maintenanceInput, type MaintenanceFormValues, type RepeatUnit,
} from './maintenance-form.js';
import { fieldErrors, type FieldErrors } from '../shared/user-errors.js';
import { navigate } from '../shared/use-route.js';
import { describeWindowState, utcMinute, windowState, type WindowState } from './window-state.js';

const WindowsQuery = graphql(`
  query ConsoleMaintenanceWindows {
    maintenanceWindows(first: 100) {
      nodes {
        id name startsAt endsAt timezone repeatUnit repeatInterval tags description pauseAllChecks silenceAllAlerts
        upcomingMaintenances(first: 3) { id status startsAt endsAt }
      }
    }
  }
`);
const WindowQuery = graphql(`
  query ConsoleMaintenanceWindow($id: ID!) {
    maintenanceWindow(id: $id) {
      id name startsAt endsAt timezone repeatUnit repeatInterval tags description pauseAllChecks silenceAllAlerts
      maintenances { id startsAt endsAt status }
      upcomingMaintenances(first: 3) { id status startsAt endsAt }
    }
  }
`);
const CreateWindow = graphql(`
  mutation ConsoleCreateMaintenanceWindow($input: MaintenanceWindowInput!) {
    createMaintenanceWindow(input: $input) {
      maintenanceWindow { id name startsAt endsAt timezone repeatUnit repeatInterval tags description pauseAllChecks silenceAllAlerts }
      userErrors { field code message reason }
    }
  }
`);
const UpdateWindow = graphql(`
  mutation ConsoleUpdateMaintenanceWindow($id: ID!, $input: MaintenanceWindowInput!) {
    updateMaintenanceWindow(id: $id, input: $input) {
      maintenanceWindow {
        id name startsAt endsAt timezone repeatUnit repeatInterval tags description pauseAllChecks silenceAllAlerts
        maintenances { id startsAt endsAt status }
      }
      userErrors { field code message reason }
    }
  }
`);
// Starting or ending now is a status update of the maintenance (REST moves its start or end to now).
const MoveMaintenance = graphql(`
  mutation ConsoleMoveMaintenance($id: ID!, $input: CreateMaintenanceUpdateInput!) {
    createMaintenanceUpdate(maintenanceId: $id, input: $input) {
      maintenanceUpdate { id status maintenance { id status startsAt endsAt } }
      userErrors { field code message reason }
    }
  }
`);
const DeleteWindow = graphql(`
  mutation ConsoleDeleteMaintenanceWindow($id: ID!) { deleteMaintenanceWindow(id: $id) { deletedId userErrors { field code message reason } } }
`);

const NO_ERRORS: FieldErrors = { byField: {}, general: [] };
const when = utcMinute;

/** The account's maintenance windows: listed, and a form to add one. */
export function MaintenanceWindows() {
  const [{ data, error }] = useQuery({ query: WindowsQuery, requestPolicy: 'cache-and-network' });
  const { can } = useAccess();
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading…</p>;
  return (
    <section aria-labelledby="maintenance-title">
      <h1 id="maintenance-title">Maintenance windows</h1>
      {data.maintenanceWindows.nodes.length === 0 ? <p className="muted">No maintenance windows yet. A window silences alerts (or pauses checks) while you work on your systems.</p> : (
        <table className="card" aria-label="Maintenance windows">
          <thead><tr><th scope="col">Name</th><th scope="col">State</th><th scope="col">Starts</th><th scope="col">Ends</th><th scope="col">Repeats</th><th scope="col">Effect</th></tr></thead>
          <tbody>
            {data.maintenanceWindows.nodes.map((w) => (
              <tr key={w.id} data-maintenance-window-id={w.id}>
                <td><Link to={`/maintenance/${encodeURIComponent(w.id)}`}>{w.name}</Link></td>
                <td><WindowStateText state={windowState(w.upcomingMaintenances)} /></td>
                <td>{when(w.startsAt)}</td>
                <td>{when(w.endsAt)}</td>
                <td>{describeRepeat(w)}</td>
                <td>{[w.silenceAllAlerts ? 'alerts silenced' : '', w.pauseAllChecks ? 'checks paused' : ''].filter(Boolean).join(', ') || <span className="muted">none</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {can('write') && <MaintenanceForm />}
    </section>
  );
}

/** One maintenance window: its settings (editable), its maintenances, and deletion. */
export function MaintenanceWindowDetail({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: WindowQuery, variables: { id }, requestPolicy: 'cache-and-network' });
  const [, deleteWindow] = useMutation(DeleteWindow);
  const { can } = useAccess();
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading…</p>;
  const window = data.maintenanceWindow;
  if (!window) return <section><h1>Maintenance window not found</h1><p><Link to="/maintenance">Back to the maintenance windows</Link>.</p></section>;

  async function remove(): Promise<string[]> {
    const result = await deleteWindow({ id });
    const problems = result.error ? [result.error.message] : (result.data?.deleteMaintenanceWindow.userErrors ?? []).map((e) => e.message);
    if (!problems.length) navigate('/maintenance');
    return problems;
  }

  return (
    <section aria-labelledby="window-title">
      <p><Link to="/maintenance">← Maintenance windows</Link></p>
      <h1 id="window-title">{window.name}</h1>
      <DeleteActions label="Maintenance window actions" noun="maintenance window" question={<>Delete {window.name} with all its maintenances?</>} remove={remove} />
      {can('write') && <WindowStateActions state={windowState(window.upcomingMaintenances)} />}
      <div className="grid-2">
        <WriteFieldset><MaintenanceForm window={window} /></WriteFieldset>
        <section className="card" aria-labelledby="maintenances-title">
          <h2 id="maintenances-title">Maintenances</h2>
          {window.maintenances.length === 0 ? <p className="muted">None planned.</p> : (
            <ul className="plain-list" aria-label="Maintenances">
              {window.maintenances.slice(0, 50).map((m) => <li key={m.id}>{when(m.startsAt)} – {when(m.endsAt)} <span className="muted">{label(m.status)}</span></li>)}
            </ul>
          )}
        </section>
      </div>
    </section>
  );
}

/** A window's state as a labelled pill the list and page share. */
function WindowStateText({ state }: { state: WindowState }) {
  return <span className={`pill pill--maintenance${state.kind === 'IN_PROGRESS' ? ' pill--maintenance-active' : ''}`} data-window-state={state.kind}>{describeWindowState(state)}</span>;
}

/** The window's state, with "Start now" for its next maintenance or "End now" for the one going on. */
function WindowStateActions({ state }: { state: WindowState }) {
  const [moved, move] = useMutation(MoveMaintenance);
  const [message, setMessage] = useState<string | null>(null);
  // The message of an End now stays once the window has ended.
  const said = message && <p role="status" className="muted">{message}</p>;
  if (state.kind === 'ENDED') return <><p><WindowStateText state={state} /> <span className="muted">No maintenance left to start: change the dates below to plan another.</span></p>{said}</>;
  const starting = state.kind === 'SCHEDULED';
  const action = starting ? 'Start now' : 'End now';

  async function perform() {
    setMessage(null);
    const input = starting
      ? { status: 'IN_PROGRESS' as const, description: 'Started from the console.' }
      : { status: 'COMPLETED' as const, description: 'Ended from the console.' };
    const result = await move({ id: state.kind === 'ENDED' ? '' : state.maintenance.id, input });
    const problems = result.error ? [result.error.message] : (result.data?.createMaintenanceUpdate.userErrors ?? []).map((e) => e.message);
    setMessage(problems.length ? `${action} failed: ${problems.join(' ')}` : starting ? 'Maintenance started.' : 'Maintenance ended.');
  }

  return (
    <div className="actions" role="group" aria-label="Maintenance state">
      <WindowStateText state={state} />
      <button type="button" className="button" disabled={moved.fetching} onClick={perform}>{moved.fetching ? `${action}…` : action}</button>
      {said}
    </div>
  );
}

type StoredWindow = Parameters<typeof maintenanceFormValues>[0] & { id: string };

/** Creates a maintenance window, or edits `window`; the API's userErrors show on the fields they name. */
function MaintenanceForm({ window }: { window?: StoredWindow }) {
  const editing = window !== undefined;
  const [values, setValues] = useState<MaintenanceFormValues>(() => (window ? maintenanceFormValues(window) : EMPTY_MAINTENANCE_FORM));
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [message, setMessage] = useState<string | null>(null);
  const [created, create] = useMutation(CreateWindow);
  const [updated, update] = useMutation(UpdateWindow);
  useEffect(() => {
    if (window) setValues(maintenanceFormValues(window));
  }, [window]);
  const set = <K extends keyof MaintenanceFormValues>(key: K, value: MaintenanceFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const busy = created.fetching || updated.fetching;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    const input = maintenanceInput(values);
    const result = editing ? await update({ id: window.id, input }) : await create({ input });
    if (result.error) return setErrors({ byField: {}, general: [result.error.message] });
    const payload = result.data && ('updateMaintenanceWindow' in result.data ? result.data.updateMaintenanceWindow : 'createMaintenanceWindow' in result.data ? result.data.createMaintenanceWindow : null);
    if (!payload) return;
    if (payload.userErrors.length) {
      const found = fieldErrors(payload.userErrors, MAINTENANCE_FORM_FIELDS);
      setErrors(found);
      const first = MAINTENANCE_FORM_FIELDS.find((f) => found.byField[f]);
      document.querySelector<HTMLElement>(first ? `[data-field="${first}"]` : '.form-error')?.focus();
      return;
    }
    setErrors(NO_ERRORS);
    if (!editing && payload.maintenanceWindow) navigate(`/maintenance/${encodeURIComponent(payload.maintenanceWindow.id)}`);
    else setMessage(`Saved ${payload.maintenanceWindow?.name ?? 'the maintenance window'}.`);
  }

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="window-form-title">
      <h2 id="window-form-title">{editing ? 'Settings' : 'New maintenance window'}</h2>
      {errors.general.length > 0 && <div className="form-error" role="alert" tabIndex={-1}>{errors.general.map((m) => <p key={m}>{m}</p>)}</div>}
      {message && <p role="status" className="muted">{message}</p>}
      <Field label="Window name" field="name" errors={errors}>{(props) => <input {...props} value={values.name} onChange={(e) => set('name', e.target.value)} />}</Field>
      <div className="field-row">
        <Field label="Starts (UTC)" field="startsAt" errors={errors}>{(props) => <input {...props} type="datetime-local" value={values.startsAt} onChange={(e) => set('startsAt', e.target.value)} />}</Field>
        <Field label="Ends (UTC)" field="endsAt" errors={errors}>{(props) => <input {...props} type="datetime-local" value={values.endsAt} onChange={(e) => set('endsAt', e.target.value)} />}</Field>
      </div>
      <div className="field-row">
        <Field label="Repeats" field="repeatUnit" errors={errors}>
          {(props) => (
            <select {...props} value={values.repeatUnit} onChange={(e) => set('repeatUnit', e.target.value as RepeatUnit | '')}>
              <option value="">Never</option>
              <option value="DAY">Daily</option>
              <option value="WEEK">Weekly</option>
              <option value="MONTH">Monthly</option>
            </select>
          )}
        </Field>
        {values.repeatUnit && (
          <Field label="Repeat interval" field="repeatInterval" errors={errors} hint="Every how many days, weeks or months.">
            {(props) => <input {...props} inputMode="numeric" value={values.repeatInterval} onChange={(e) => set('repeatInterval', e.target.value)} />}
          </Field>
        )}
        <Field label="Time zone" field="timezone" errors={errors} hint="A named IANA zone, e.g. Europe/Berlin: repeats follow its clock." grow>
          {(props) => <input {...props} value={values.timezone} onChange={(e) => set('timezone', e.target.value)} />}
        </Field>
      </div>
      <Field label="Window tags" field="tags" errors={errors} hint="Separated by commas: the checks with these tags are affected.">
        {(props) => <input {...props} value={values.tags} onChange={(e) => set('tags', e.target.value)} />}
      </Field>
      <Field label="Description" field="description" errors={errors}>{(props) => <textarea {...props} rows={2} value={values.description} onChange={(e) => set('description', e.target.value)} />}</Field>
      <label className="checkbox"><input type="checkbox" checked={values.silenceAllAlerts} onChange={(e) => set('silenceAllAlerts', e.target.checked)} /> Silence every alert while it runs</label>
      <label className="checkbox"><input type="checkbox" checked={values.pauseAllChecks} onChange={(e) => set('pauseAllChecks', e.target.checked)} /> Pause the affected checks while it runs</label>
      <div className="actions"><button type="submit" className="button button--primary" disabled={busy}>{busy ? 'Saving…' : editing ? 'Save maintenance window' : 'Create maintenance window'}</button></div>
    </form>
  );
}
