import { useState, type FormEvent } from 'react';
import { useAccess } from '../access/use-access.js';
import { useMutation } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { Field } from '../checks/check-form.js';
import { fieldErrors, type FieldErrors } from '../shared/user-errors.js';

const CreateService = graphql(`
  mutation ConsoleCreateStatusPageService($input: StatusPageServiceInput!) {
    createStatusPageService(input: $input) { statusPageService { id name autoIncident linkedChecks { id name } } userErrors { field code message } }
  }
`);
const UpdateService = graphql(`
  mutation ConsoleUpdateStatusPageService($id: ID!, $input: StatusPageServiceInput!) {
    updateStatusPageService(id: $id, input: $input) { statusPageService { id name autoIncident linkedChecks { id name } } userErrors { field code message } }
  }
`);
const DeleteService = graphql(`
  mutation ConsoleDeleteStatusPageService($id: ID!) { deleteStatusPageService(id: $id) { deletedId userErrors { field code message } } }
`);

const NO_ERRORS: FieldErrors = { byField: {}, general: [] };
type Named = { id: string; name: string };
/** A service as the card lists it: the checks it is built from and whether it opens incidents itself. */
export type LinkedService = Named & { autoIncident?: boolean; linkedChecks?: readonly Named[] };

/** The services status pages show and incidents affect: listed, each editable and deletable, and a form to add one. */
export function ServicesCard({ services, checks, onChanged }: { services: readonly LinkedService[]; checks: readonly Named[]; onChanged(): void }) {
  const [editing, setEditing] = useState<string | null>(null);
  const canWrite = useAccess().can('write');
  return (
    <section className="card" aria-labelledby="services-title">
      <h2 id="services-title">Services</h2>
      {services.length === 0 ? <p className="muted">No services yet: add the parts of your product your users know (API, website…).</p> : (
        <ul className="plain-list" aria-label="Services">{services.map((s) => (
          <li key={s.id} data-service-id={s.id}>
            {editing === s.id ? (
              <ServiceForm service={s} checks={checks} onDone={(changed) => { setEditing(null); if (changed) onChanged(); }} />
            ) : (
              <>
                <span>{s.name}</span>{s.linkedChecks?.length ? <span className="muted"> — from {s.linkedChecks.map((c) => c.name).join(', ')}{s.autoIncident ? ', automatic incidents' : ''}</span> : null}
                {canWrite && <>{' '}<button type="button" className="button button--small" aria-label={`Edit service ${s.name}`} onClick={() => setEditing(s.id)}>Edit</button></>}
              </>
            )}
          </li>
        ))}</ul>
      )}
      {canWrite && <>
        <h3>Add a service</h3>
        <ServiceForm checks={checks} onDone={(changed) => changed && onChanged()} />
      </>}
    </section>
  );
}

/**
 * Adds a service, or edits `service` (its name, the checks it is built from, automatic incidents)
 * with a two-step delete; the API's userErrors show on the fields they name.
 */
function ServiceForm({ service, checks, onDone }: { service?: LinkedService; checks: readonly Named[]; onDone(changed: boolean): void }) {
  const editing = service !== undefined;
  const [name, setName] = useState(service?.name ?? '');
  const [chosen, setChosen] = useState<string[]>(() => service?.linkedChecks?.map((c) => c.id) ?? []);
  const [autoIncident, setAutoIncident] = useState(service?.autoIncident ?? false);
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [confirming, setConfirming] = useState(false);
  const [created, create] = useMutation(CreateService);
  const [updated, update] = useMutation(UpdateService);
  const [deleted, remove] = useMutation(DeleteService);
  const busy = created.fetching || updated.fetching || deleted.fetching;
  // Checks a service is linked to but the list does not show (past its first 100) stay chosen and listed.
  const choices = [...checks, ...(service?.linkedChecks ?? []).filter((c) => !checks.some((k) => k.id === c.id))];

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = { name: name.trim(), checks: chosen, autoIncident };
    const result = service ? await update({ id: service.id, input }) : await create({ input });
    if (result.error) return setErrors({ byField: {}, general: [result.error.message] });
    const payload = result.data && ('updateStatusPageService' in result.data ? result.data.updateStatusPageService : result.data.createStatusPageService);
    if (payload?.userErrors.length) return setErrors(fieldErrors(payload.userErrors, ['name', 'checks']));
    setErrors(NO_ERRORS);
    if (!editing) {
      setName('');
      setChosen([]);
      setAutoIncident(false);
    }
    onDone(true);
  }

  async function confirmDelete() {
    const result = await remove({ id: service!.id });
    const problems = result.error ? [result.error.message] : (result.data?.deleteStatusPageService.userErrors ?? []).map((e) => e.message);
    setConfirming(false);
    if (problems.length) return setErrors({ byField: {}, general: [`Could not delete the service: ${problems.join(' ')}`] });
    onDone(true);
  }

  return (
    <form onSubmit={submit} noValidate aria-label={editing ? `Edit service ${service.name}` : 'Add a service'}>
      {errors.general.length > 0 && <div className="form-error" role="alert">{errors.general.map((m) => <p key={m}>{m}</p>)}</div>}
      <Field label="Service name" field="name" errors={errors}>{(props) => <input {...props} value={name} onChange={(e) => setName(e.target.value)} />}</Field>
      <fieldset aria-label="Checks the service's state comes from">
        <legend>Built from checks <span className="muted">(its public state and uptime follow them)</span></legend>
        {choices.length === 0 ? <p className="muted">No checks yet.</p> : choices.map((c) => (
          <label key={c.id} className="checkbox">
            <input type="checkbox" checked={chosen.includes(c.id)} onChange={(e) => setChosen((now) => (e.target.checked ? [...now, c.id] : now.filter((id) => id !== c.id)))} /> {c.name}
          </label>
        ))}
        {errors.byField.checks && <p className="field-error" role="alert">{errors.byField.checks.join(' ')}</p>}
      </fieldset>
      <label className="checkbox"><input type="checkbox" checked={autoIncident} onChange={(e) => setAutoIncident(e.target.checked)} /> Open an incident automatically when its checks fail</label>
      <div className="actions">
        <button type="submit" className="button" disabled={busy}>{editing ? 'Save service' : 'Add service'}</button>
        {editing && !confirming && (
          <>
            <button type="button" className="button" onClick={() => onDone(false)}>Cancel</button>
            <button type="button" className="button" onClick={() => setConfirming(true)}>Delete service</button>
          </>
        )}
        {editing && confirming && (
          <>
            <span role="status">Delete {service.name}? Status pages stop showing it.</span>
            <button type="button" className="button button--danger" disabled={busy} onClick={confirmDelete} autoFocus>Confirm delete</button>
            <button type="button" className="button" onClick={() => setConfirming(false)}>Keep it</button>
          </>
        )}
      </div>
    </form>
  );
}
