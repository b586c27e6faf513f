import { useEffect, useState, type FormEvent } from 'react';
import { useAccess } from '../access/use-access.js';
import { WriteFieldset } from '../access/write-fieldset.js';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { Field } from '../checks/check-form.js';
import { DeleteActions } from '../shared/delete-actions.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { Link } from '../shared/link.js';
import { ServicePicker } from '../shared/service-picker.js';
import { ServicesCard } from './services-card.js';
import { label } from '../incidents/incident-form.js';
import {
  cardsEditable, EMPTY_STATUS_PAGE_FORM, publicPageUrl, slugFromName, STATUS_PAGE_FORM_FIELDS, statusPageFormValues, statusPageInput, type StatusPageFormValues,
} from './status-page-form.js';
import { fieldErrors, type FieldErrors } from '../shared/user-errors.js';
import { navigate } from '../shared/use-route.js';

const StatusPagesQuery = graphql(`
  query ConsoleStatusPages {
    statusPages(first: 100) { nodes { id name url description customDomain defaultTheme isPrivate cards { id cardId name services { id name } } services { id name } } }
    statusPageServices(first: 100) { nodes { id name autoIncident linkedChecks { id name } } }
    checks(first: 100) { nodes { id name } }
  }
`);
const StatusPageQuery = graphql(`
  query ConsoleStatusPage($id: ID!) {
    statusPage(id: $id) {
      id name url description customDomain defaultTheme isPrivate createdAt
      cards { id cardId name services { id name } }
      services { id name incidents(open: true) { id name severity lastUpdateStatus } }
    }
    statusPageServices(first: 100) { nodes { id name } }
  }
`);
const CreateStatusPage = graphql(`
  mutation ConsoleCreateStatusPage($input: StatusPageInput!) {
    createStatusPage(input: $input) {
      statusPage { id name url description customDomain defaultTheme isPrivate cards { id cardId name services { id name } } services { id name } }
      userErrors { field code message }
    }
  }
`);
const UpdateStatusPage = graphql(`
  mutation ConsoleUpdateStatusPage($id: ID!, $input: StatusPageInput!) {
    updateStatusPage(id: $id, input: $input) {
      statusPage { id name url description customDomain defaultTheme isPrivate cards { id cardId name services { id name } } services { id name } }
      userErrors { field code message }
    }
  }
`);
const DeleteStatusPage = graphql(`
  mutation ConsoleDeleteStatusPage($id: ID!) { deleteStatusPage(id: $id) { deletedId userErrors { field code message } } }
`);
const NO_ERRORS: FieldErrors = { byField: {}, general: [] };
type Service = { id: string; name: string };

/** The account's status pages, the services they can show, and forms to add either. */
export function StatusPages() {
  const [{ data, error }, refresh] = useQuery({ query: StatusPagesQuery, requestPolicy: 'cache-and-network' });
  const { can } = useAccess();
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading…</p>;
  const services = data.statusPageServices.nodes;
  return (
    <section aria-labelledby="status-pages-title">
      <h1 id="status-pages-title">Status pages</h1>
      {data.statusPages.nodes.length === 0 ? <p className="muted">No status pages yet. A status page shows your services and their incidents to your users.</p> : (
        <table className="card" aria-label="Status pages">
          <thead><tr><th scope="col">Name</th><th scope="col">Public page</th><th scope="col">Services</th><th scope="col">Access</th></tr></thead>
          <tbody>
            {data.statusPages.nodes.map((p) => (
              <tr key={p.id} data-status-page-id={p.id}>
                <td><Link to={`/status-pages/${encodeURIComponent(p.id)}`}>{p.name}</Link></td>
                <td><PublicLink page={p} /></td>
                <td>{p.services.map((s) => s.name).join(', ') || <span className="muted">none</span>}</td>
                <td>{p.isPrivate ? 'password' : 'public'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="grid-2">
        {can('write') && <StatusPageForm services={services} />}
        <ServicesCard services={services} checks={data.checks.nodes} onChanged={() => refresh({ requestPolicy: 'network-only' })} />
      </div>
    </section>
  );
}

function PublicLink({ page }: { page: { name: string; url: string; customDomain?: string | null } }) {
  const href = publicPageUrl(page, window.location.origin);
  return <a href={href} target="_blank" rel="noreferrer" aria-label={`Open the public page of ${page.name} (new tab)`}>{page.customDomain ?? `/status/${page.url}`}</a>;
}

/** One status page: its settings (editable), its link, its services' open incidents, and deletion. */
export function StatusPageDetail({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: StatusPageQuery, variables: { id }, requestPolicy: 'cache-and-network' });
  const [, deletePage] = useMutation(DeleteStatusPage);
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading…</p>;
  const page = data.statusPage;
  if (!page) return <section><h1>Status page not found</h1><p><Link to="/status-pages">Back to the status pages</Link>.</p></section>;

  async function remove(): Promise<string[]> {
    const result = await deletePage({ id });
    const problems = result.error ? [result.error.message] : (result.data?.deleteStatusPage.userErrors ?? []).map((e) => e.message);
    if (!problems.length) navigate('/status-pages');
    return problems;
  }

  const openIncidents = new Map<string, { id: string; name: string; severity: string; lastUpdateStatus: string }>();
  for (const service of page.services) for (const incident of service.incidents) openIncidents.set(incident.id, incident);

  return (
    <section aria-labelledby="status-page-title">
      <p><Link to="/status-pages">← Status pages</Link></p>
      <h1 id="status-page-title">{page.name}</h1>
      <p>Public page: <PublicLink page={page} />{page.isPrivate ? ' (password protected)' : ''}</p>
      <DeleteActions label="Status page actions" noun="status page" question={<>Delete {page.name}? Its cards and subscribers go; its services stay.</>} remove={remove}>
        <Link className="button" to={`/incidents?statusPage=${encodeURIComponent(page.id)}`}>Incidents of this page</Link>
      </DeleteActions>
      <div className="grid-2">
        <WriteFieldset><StatusPageForm services={data.statusPageServices.nodes} page={page} /></WriteFieldset>
        <section className="card" aria-labelledby="page-incidents-title">
          <h2 id="page-incidents-title">Open incidents</h2>
          {openIncidents.size === 0 ? <p className="muted">None: every service of this page is operational.</p> : (
            <ul className="plain-list">
              {[...openIncidents.values()].map((i) => (
                <li key={i.id}><Link to={`/incidents/${encodeURIComponent(i.id)}`}>{i.name}</Link> <span className="muted">{label(i.severity)}, {label(i.lastUpdateStatus)}</span></li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </section>
  );
}

type StoredPage = Parameters<typeof statusPageFormValues>[0] & { id: string; cards: readonly { cardId: string; name: string; services: readonly { id: string }[] }[] };

/** Creates a status page, or edits `page`; the API's userErrors show on the fields they name. */
function StatusPageForm({ services, page }: { services: readonly Service[]; page?: StoredPage }) {
  const editing = page !== undefined;
  const [values, setValues] = useState<StatusPageFormValues>(() => (page ? statusPageFormValues(page) : EMPTY_STATUS_PAGE_FORM));
  const [slugTouched, setSlugTouched] = useState(editing);
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [message, setMessage] = useState<string | null>(null);
  const [created, create] = useMutation(CreateStatusPage);
  const [updated, update] = useMutation(UpdateStatusPage);
  useEffect(() => {
    if (page) setValues(statusPageFormValues(page));
  }, [page]);
  const set = <K extends keyof StatusPageFormValues>(key: K, value: StatusPageFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const busy = created.fetching || updated.fetching;
  const canEditCards = cardsEditable(page?.cards);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    const input = statusPageInput(values, page);
    const result = editing ? await update({ id: page.id, input }) : await create({ input });
    if (result.error) return setErrors({ byField: {}, general: [result.error.message] });
    const payload = result.data && ('updateStatusPage' in result.data ? result.data.updateStatusPage : 'createStatusPage' in result.data ? result.data.createStatusPage : null);
    if (!payload) return;
    if (payload.userErrors.length) {
      const found = fieldErrors(payload.userErrors, STATUS_PAGE_FORM_FIELDS);
      setErrors(found);
      const first = STATUS_PAGE_FORM_FIELDS.find((f) => found.byField[f]);
      document.querySelector<HTMLElement>(first ? `[data-field="${first}"]` : '.form-error')?.focus();
      return;
    }
    setErrors(NO_ERRORS);
    if (!editing && payload.statusPage) navigate(`/status-pages/${encodeURIComponent(payload.statusPage.id)}`);
    else setMessage(`Saved ${payload.statusPage?.name ?? 'the status page'}.`);
  }

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="status-page-form-title">
      <h2 id="status-page-form-title">{editing ? 'Settings' : 'New status page'}</h2>
      {errors.general.length > 0 && <div className="form-error" role="alert" tabIndex={-1}>{errors.general.map((m) => <p key={m}>{m}</p>)}</div>}
      {message && <p role="status" className="muted">{message}</p>}
      <Field label="Page name" field="name" errors={errors}>
        {(props) => <input {...props} value={values.name} onChange={(e) => setValues((v) => ({ ...v, name: e.target.value, url: slugTouched ? v.url : slugFromName(e.target.value) }))} />}
      </Field>
      <Field label="Page slug" field="url" errors={errors} hint="Served at /status/{slug}: lower-case letters, digits and inner hyphens, unique across all accounts.">
        {(props) => <input {...props} value={values.url} onChange={(e) => { setSlugTouched(true); set('url', e.target.value); }} />}
      </Field>
      <Field label="Description" field="description" errors={errors}>{(props) => <textarea {...props} rows={2} value={values.description} onChange={(e) => set('description', e.target.value)} />}</Field>
      <div className="field-row">
        <Field label="Custom domain" field="customDomain" errors={errors} hint="Optional, e.g. status.example.com." grow>
          {(props) => <input {...props} value={values.customDomain} onChange={(e) => set('customDomain', e.target.value)} />}
        </Field>
        <Field label="Default theme" field="defaultTheme" errors={errors}>
          {(props) => (
            <select {...props} value={values.defaultTheme} onChange={(e) => set('defaultTheme', e.target.value as StatusPageFormValues['defaultTheme'])}>
              <option value="AUTO">Visitor's system</option>
              <option value="LIGHT">Light</option>
              <option value="DARK">Dark</option>
            </select>
          )}
        </Field>
      </div>
      {canEditCards ? (
        <ServicePicker legend="Services shown" field="cards" services={services} selected={values.services} onChange={(ids) => set('services', ids)} errors={errors}
          empty="No services yet: add one under Services." />
      ) : <p className="muted">This page has {page?.cards.length} cards: they are kept as they are (edit them through the API).</p>}
      <div className="actions"><button type="submit" className="button button--primary" disabled={busy}>{busy ? 'Saving…' : editing ? 'Save status page' : 'Create status page'}</button></div>
    </form>
  );
}
