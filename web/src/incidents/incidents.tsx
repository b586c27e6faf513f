import { useEffect, useState, type FormEvent } from 'react';
import { useAccess } from '../access/use-access.js';
import { useMutation, useQuery, useSubscription } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { Field } from '../checks/check-form.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { Link } from '../shared/link.js';
import { ServicePicker } from '../shared/service-picker.js';
import {
  EMPTY_INCIDENT_FORM, filterIncidents, INCIDENT_FORM_FIELDS, INCIDENT_UPDATE_FORM_FIELDS, incidentInput, incidentUpdateInput, label, nextStatus, SEVERITIES, STATUSES,
  type IncidentFormValues, type IncidentSeverity, type IncidentStatus, type IncidentUpdateFormValues,
} from './incident-form.js';
import { formatRelativeTime as relativeTime } from '../shared/relative-time.js';
import { fieldErrors, type FieldErrors } from '../shared/user-errors.js';
import { navigate, useRoute } from '../shared/use-route.js';

const IncidentsQuery = graphql(`
  query ConsoleIncidents {
    incidents(first: 100) { nodes { id name severity lastUpdateStatus open duration createdAt services { id name } } }
    statusPages(first: 100) { nodes { id name services { id name } } }
    statusPageServices(first: 100) { nodes { id name } }
  }
`);
const IncidentQuery = graphql(`
  query ConsoleIncident($id: ID!) {
    incident(id: $id) {
      id name severity lastUpdateStatus open duration createdAt
      services { id name }
      updates { id description status publicIncidentUpdateDate notifySubscribers }
    }
  }
`);
const IncidentUpdated = graphql(`
  subscription ConsoleIncidentUpdated($incidentId: ID) {
    incidentUpdated(incidentId: $incidentId) {
      incidentId
      deleted
      incident {
        id name severity lastUpdateStatus open duration createdAt
        services { id name }
        updates { id description status publicIncidentUpdateDate notifySubscribers }
      }
    }
  }
`);
const CreateIncident = graphql(`
  mutation ConsoleCreateIncident($input: CreateIncidentInput!) {
    createIncident(input: $input) { incident { id name } userErrors { field code message } }
  }
`);
const CreateIncidentUpdate = graphql(`
  mutation ConsoleCreateIncidentUpdate($incidentId: ID!, $input: IncidentUpdateInput!) {
    createIncidentUpdate(incidentId: $incidentId, input: $input) {
      incidentUpdate {
        id
        incident { id lastUpdateStatus open duration updates { id description status publicIncidentUpdateDate notifySubscribers } }
      }
      userErrors { field code message }
    }
  }
`);

const NO_ERRORS: FieldErrors = { byField: {}, general: [] };
type State = 'open' | 'resolved' | 'all';

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

/** Incidents, filtered by status page, service and state (kept in the query string), updated live; a form opens one. */
export function Incidents() {
  const { search } = useRoute();
  const { can } = useAccess();
  const params = new URLSearchParams(search);
  const pageId = params.get('statusPage') ?? '';
  const serviceId = params.get('service') ?? '';
  const state = (['open', 'resolved', 'all'].includes(params.get('state') ?? '') ? params.get('state') : 'open') as State;
  const [{ data, error }, refresh] = useQuery({ query: IncidentsQuery, requestPolicy: 'cache-and-network' });
  useSubscription({ query: IncidentUpdated, variables: {} }, (_prev, event) => {
    refresh({ requestPolicy: 'network-only' });
    return event;
  });
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading…</p>;

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key === 'statusPage' && value) next.delete('service');
    const query = next.toString();
    navigate(`/incidents${query ? `?${query}` : ''}`, { replace: true });
  };
  const page = data.statusPages.nodes.find((p) => p.id === pageId);
  const services = serviceId ? [serviceId] : page ? page.services.map((s) => s.id) : null;
  const shown = filterIncidents(data.incidents.nodes, { services, state });
  const serviceChoices = page ? page.services : data.statusPageServices.nodes;

  return (
    <section aria-labelledby="incidents-title">
      <h1 id="incidents-title">Incidents</h1>
      <div className="filters" role="search" aria-label="Filter incidents">
        <label>Status page{' '}
          <select value={pageId} onChange={(e) => setParam('statusPage', e.target.value)}>
            <option value="">All status pages</option>
            {data.statusPages.nodes.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
          </select>
        </label>
        <label>Service{' '}
          <select value={serviceId} onChange={(e) => setParam('service', e.target.value)}>
            <option value="">All services</option>
            {serviceChoices.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
          </select>
        </label>
        <label>State{' '}
          <select value={state} onChange={(e) => setParam('state', e.target.value === 'open' ? '' : e.target.value)}>
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
            <option value="all">All</option>
          </select>
        </label>
      </div>
      {shown.length === 0 ? <p className="muted" role="status">No {state === 'all' ? '' : `${state} `}incidents{page ? ` on ${page.name}` : ''}.</p> : (
        <table className="card" aria-label="Incidents">
          <thead><tr><th scope="col">Name</th><th scope="col">Severity</th><th scope="col">Status</th><th scope="col">Services</th><th scope="col">Opened</th></tr></thead>
          <tbody>
            {shown.map((i) => (
              <tr key={i.id} data-incident-id={i.id}>
                <td><Link to={`/incidents/${encodeURIComponent(i.id)}`}>{i.name}</Link></td>
                <td>{label(i.severity)}</td>
                <td>{label(i.lastUpdateStatus)}{i.duration != null ? ` after ${formatDuration(i.duration)}` : ''}</td>
                <td>{i.services.map((s) => s.name).join(', ')}</td>
                <td>{relativeTime(i.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {can('write') && <IncidentForm key={`${pageId}|${serviceId}`} services={data.statusPageServices.nodes} preselected={services ?? []} />}
    </section>
  );
}

/** Opens an incident with its first update; the API's userErrors show on the fields they name. */
function IncidentForm({ services, preselected }: { services: readonly { id: string; name: string }[]; preselected: readonly string[] }) {
  const [values, setValues] = useState<IncidentFormValues>(() => ({ ...EMPTY_INCIDENT_FORM, services: [...preselected] }));
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [created, create] = useMutation(CreateIncident);
  const set = <K extends keyof IncidentFormValues>(key: K, value: IncidentFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = await create({ input: incidentInput(values) });
    if (result.error) return setErrors({ byField: {}, general: [result.error.message] });
    const payload = result.data?.createIncident;
    if (!payload) return;
    if (payload.userErrors.length) {
      const found = fieldErrors(payload.userErrors, INCIDENT_FORM_FIELDS);
      setErrors(found);
      const first = INCIDENT_FORM_FIELDS.find((f) => found.byField[f]);
      document.querySelector<HTMLElement>(first ? `[data-field="${first}"]` : '.form-error')?.focus();
      return;
    }
    setErrors(NO_ERRORS);
    if (payload.incident) navigate(`/incidents/${encodeURIComponent(payload.incident.id)}`);
  }

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="incident-form-title">
      <h2 id="incident-form-title">Open an incident</h2>
      {errors.general.length > 0 && <div className="form-error" role="alert" tabIndex={-1}>{errors.general.map((m) => <p key={m}>{m}</p>)}</div>}
      <div className="field-row">
        <Field label="Incident name" field="name" errors={errors} grow>{(props) => <input {...props} value={values.name} onChange={(e) => set('name', e.target.value)} />}</Field>
        <Field label="Severity" field="severity" errors={errors}>
          {(props) => <select {...props} value={values.severity} onChange={(e) => set('severity', e.target.value as IncidentSeverity)}>{SEVERITIES.map((s) => <option key={s} value={s}>{label(s)}</option>)}</select>}
        </Field>
      </div>
      <ServicePicker legend="Affected services" field="services" services={services} selected={values.services} onChange={(ids) => set('services', ids)} errors={errors}
        empty={<>No services yet: add one on the <Link to="/status-pages">status pages</Link> screen.</>} />
      <Field label="First update" field="updates.0.description" errors={errors} hint="What your users read on the status page.">
        {(props) => <textarea {...props} rows={3} value={values.description} onChange={(e) => set('description', e.target.value)} />}
      </Field>
      <div className="field-row">
        <Field label="Status" field="updates.0.status" errors={errors}>
          {(props) => <select {...props} value={values.status} onChange={(e) => set('status', e.target.value as IncidentStatus)}>{STATUSES.map((s) => <option key={s} value={s}>{label(s)}</option>)}</select>}
        </Field>
      </div>
      <label className="checkbox"><input type="checkbox" checked={values.notifySubscribers} onChange={(e) => set('notifySubscribers', e.target.checked)} /> Notify subscribers</label>
      {errors.byField.updates && <p className="field-error" role="alert" data-error-for="updates">{errors.byField.updates.join(' ')}</p>}
      <div className="actions"><button type="submit" className="button button--primary" disabled={created.fetching}>{created.fetching ? 'Opening…' : 'Open incident'}</button></div>
    </form>
  );
}

/** One incident: its updates newest first (live), a form to post the next one, and resolving. */
export function IncidentDetail({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: IncidentQuery, variables: { id }, requestPolicy: 'cache-and-network' });
  // The event carries the incident with its updates: the normalized cache updates this screen.
  useSubscription({ query: IncidentUpdated, variables: { incidentId: id } });
  const { can } = useAccess();
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading…</p>;
  const incident = data.incident;
  if (!incident) return <section><h1>Incident not found</h1><p><Link to="/incidents">Back to the incidents</Link>.</p></section>;
  return (
    <section aria-labelledby="incident-title">
      <p><Link to="/incidents">← Incidents</Link></p>
      <h1 id="incident-title">{incident.name}</h1>
      <p>
        <span className={`status status--${incident.open ? 'failing' : 'passing'}`} data-incident-status={incident.lastUpdateStatus}>{label(incident.lastUpdateStatus)}</span>
        {' · '}{label(incident.severity)} severity · {incident.services.map((s, i) => (
          <span key={s.id}>{i > 0 ? ', ' : ''}<Link to={`/incidents?service=${encodeURIComponent(s.id)}&state=all`}>{s.name}</Link></span>
        ))}
        {incident.duration != null ? ` · lasted ${formatDuration(incident.duration)}` : ''}
      </p>
      <div className="grid-2">
        <section className="card" aria-labelledby="updates-title">
          <h2 id="updates-title">Updates</h2>
          {incident.updates.length === 0 ? <p className="muted">No updates yet.</p> : (
            <ol className="plain-list" aria-label="Incident updates">
              {incident.updates.map((u) => (
                <li key={u.id}>
                  <strong>{u.status ? label(u.status) : 'Update'}</strong> <span className="muted">{relativeTime(u.publicIncidentUpdateDate)}{u.notifySubscribers ? ', subscribers notified' : ''}</span>
                  <p>{u.description}</p>
                </li>
              ))}
            </ol>
          )}
        </section>
        {can('write') && <UpdateForm incidentId={incident.id} current={incident.lastUpdateStatus} open={incident.open} />}
      </div>
    </section>
  );
}

function UpdateForm({ incidentId, current, open }: { incidentId: string; current: IncidentStatus; open: boolean }) {
  const initial = (): IncidentUpdateFormValues => ({ description: '', status: open ? nextStatus(current) : 'INVESTIGATING', notifySubscribers: false });
  const [values, setValues] = useState<IncidentUpdateFormValues>(initial);
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [message, setMessage] = useState<string | null>(null);
  const [posted, post] = useMutation(CreateIncidentUpdate);
  useEffect(() => setValues((v) => ({ ...v, status: open ? nextStatus(current) : 'INVESTIGATING' })), [current, open]);
  const set = <K extends keyof IncidentUpdateFormValues>(key: K, value: IncidentUpdateFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  async function send(input: ReturnType<typeof incidentUpdateInput>) {
    setMessage(null);
    const result = await post({ incidentId, input });
    if (result.error) return setErrors({ byField: {}, general: [result.error.message] });
    const payload = result.data?.createIncidentUpdate;
    if (!payload) return;
    if (payload.userErrors.length) {
      const found = fieldErrors(payload.userErrors, INCIDENT_UPDATE_FORM_FIELDS);
      setErrors(found);
      const first = INCIDENT_UPDATE_FORM_FIELDS.find((f) => found.byField[f]);
      document.querySelector<HTMLElement>(first ? `[data-field="${first}"]` : '.form-error')?.focus();
      return;
    }
    setErrors(NO_ERRORS);
    setValues((v) => ({ ...v, description: '' }));
    setMessage(input.status === 'RESOLVED' ? 'Resolved.' : 'Update posted.');
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    void send(incidentUpdateInput(values));
  }
  function resolve() {
    void send(incidentUpdateInput({ ...values, status: 'RESOLVED', description: values.description.trim() || 'This incident has been resolved.' }));
  }

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="update-form-title">
      <h2 id="update-form-title">{open ? 'Post an update' : 'Reopen with an update'}</h2>
      {errors.general.length > 0 && <div className="form-error" role="alert" tabIndex={-1}>{errors.general.map((m) => <p key={m}>{m}</p>)}</div>}
      {message && <p role="status" className="muted">{message}</p>}
      <Field label="Update" field="description" errors={errors}>{(props) => <textarea {...props} rows={3} value={values.description} onChange={(e) => set('description', e.target.value)} />}</Field>
      <Field label="New status" field="status" errors={errors}>
        {(props) => (
          <select {...props} value={values.status} onChange={(e) => set('status', e.target.value as IncidentStatus | '')}>
            <option value="">Keep ({label(current)})</option>
            {STATUSES.map((s) => <option key={s} value={s}>{label(s)}</option>)}
          </select>
        )}
      </Field>
      <label className="checkbox"><input type="checkbox" checked={values.notifySubscribers} onChange={(e) => set('notifySubscribers', e.target.checked)} /> Notify subscribers</label>
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={posted.fetching}>Post update</button>
        {open && <button type="button" className="button" disabled={posted.fetching} onClick={resolve}>Resolve incident</button>}
      </div>
    </form>
  );
}
