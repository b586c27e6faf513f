import { useEffect, useState, type FormEvent } from 'react';
import { useAccess } from '../access/use-access.js';
import { WriteFieldset } from '../access/write-fieldset.js';
import { useMutation, useQuery } from 'urql';
import { ManagedByProject } from '../shared/managed-by-project.js';
import { useManagingProject } from '../shared/use-managing-project.js';
import { graphql } from '../__generated__/gql.js';
import { Field, LocationsField } from '../checks/check-form.js';
import { DeleteActions } from '../shared/delete-actions.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { Link } from '../shared/link.js';
import { EMPTY_GROUP_FORM, GROUP_FORM_FIELDS, groupFormValues, groupInput, type GroupFormValues } from './group-form.js';
import { fieldErrors, type FieldErrors } from '../shared/user-errors.js';
import { navigate } from '../shared/use-route.js';

const GroupsQuery = graphql(`
  query ConsoleGroups {
    locations { region name }
    checkGroups(first: 100) { totalCount nodes { id name activated muted tags locations concurrency } }
  }
`);
const GroupQuery = graphql(`
  query ConsoleGroup($id: ID!) {
    locations { region name }
    checkGroup(id: $id) {
      id name activated muted tags locations concurrency
      checks(first: 100) { totalCount nodes { id name checkType activated } }
    }
  }
`);
const CreateGroup = graphql(`
  mutation ConsoleCreateGroup($input: CheckGroupInput!) {
    createCheckGroup(input: $input) { checkGroup { id name activated muted tags locations concurrency } userErrors { field code message } }
  }
`);
const UpdateGroup = graphql(`
  mutation ConsoleUpdateGroup($id: ID!, $input: CheckGroupInput!) {
    updateCheckGroup(id: $id, input: $input) { checkGroup { id name activated muted tags locations concurrency } userErrors { field code message } }
  }
`);
const DeleteGroup = graphql(`
  mutation ConsoleDeleteGroup($id: ID!) { deleteCheckGroup(id: $id) { deletedId userErrors { field code message } } }
`);

const NO_ERRORS: FieldErrors = { byField: {}, general: [] };

/** The account's check groups: listed, and a form to add one. */
export function Groups() {
  const [{ data, error }] = useQuery({ query: GroupsQuery, requestPolicy: 'cache-and-network' });
  const { can } = useAccess();
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading…</p>;
  return (
    <section aria-labelledby="groups-title">
      <h1 id="groups-title">Check groups</h1>
      {data.checkGroups.nodes.length === 0 ? <p className="muted">No groups yet. A group shares locations, tags and settings among its checks.</p> : (
        <table className="card" aria-label="Check groups">
          <thead><tr><th scope="col">Name</th><th scope="col">State</th><th scope="col">Tags</th><th scope="col">Locations</th><th scope="col">Concurrency</th></tr></thead>
          <tbody>
            {data.checkGroups.nodes.map((g) => (
              <tr key={g.id} data-group-id={g.id}>
                <td><Link to={`/groups/${encodeURIComponent(g.id)}`}>{g.name}</Link></td>
                <td>{g.activated ? 'active' : 'deactivated'}{g.muted ? ', muted' : ''}</td>
                <td>{g.tags.join(', ') || <span className="muted">none</span>}</td>
                <td>{g.locations.join(', ') || <span className="muted">none</span>}</td>
                <td>{g.concurrency}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {can('write') && <GroupForm locations={data.locations} />}
    </section>
  );
}

/** One check group: its settings (editable), its checks, and deletion. */
export function GroupDetail({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: GroupQuery, variables: { id }, requestPolicy: 'cache-and-network' });
  const managing = useManagingProject({ groupId: id });
  const [, deleteGroup] = useMutation(DeleteGroup);
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading…</p>;
  const group = data.checkGroup;
  if (!group) return <section><h1>Group not found</h1><p><Link to="/groups">Back to the groups</Link>.</p></section>;

  async function remove(): Promise<string[]> {
    const result = await deleteGroup({ id });
    const problems = result.error ? [result.error.message] : (result.data?.deleteCheckGroup.userErrors ?? []).map((e) => e.message);
    if (!problems.length) navigate('/groups');
    return problems;
  }

  return (
    <section aria-labelledby="group-title">
      <p><Link to="/groups">← Groups</Link></p>
      <h1 id="group-title">{group.name}</h1>
      {managing && <ManagedByProject project={managing} noun="group" />}
      <DeleteActions label="Group actions" noun="group" question={<>Delete {group.name}?{group.checks.nodes.length ? ' Only an empty group can be deleted: move its checks out first.' : ''}</>} remove={remove} />
      <div className="grid-2">
        <WriteFieldset><GroupForm locations={data.locations} group={group} readOnly={!!managing} /></WriteFieldset>
        <section className="card" aria-labelledby="group-checks-title">
          <h2 id="group-checks-title">Checks in this group ({group.checks.totalCount ?? group.checks.nodes.length})</h2>
          {group.checks.nodes.length === 0 ? <p className="muted">No checks yet: pick this group in a check's form.</p> : (
            <ul className="plain-list">
              {group.checks.nodes.map((c) => (
                <li key={c.id}><Link to={`/checks/${encodeURIComponent(c.id)}`}>{c.name}</Link> <span className="muted">{c.checkType}{c.activated ? '' : ', deactivated'}</span></li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </section>
  );
}

type StoredGroup = { id: string; name: string; activated: boolean; muted: boolean; tags: readonly string[]; locations: readonly string[]; concurrency: number };

/** Creates a group, or edits `group`; the API's userErrors show on the fields they name. */
function GroupForm({ locations, group, readOnly = false }: { locations: readonly { region: string; name: string }[]; group?: StoredGroup; readOnly?: boolean }) {
  const editing = group !== undefined;
  const [values, setValues] = useState<GroupFormValues>(() => (group ? groupFormValues(group) : EMPTY_GROUP_FORM));
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [message, setMessage] = useState<string | null>(null);
  const [created, create] = useMutation(CreateGroup);
  const [updated, update] = useMutation(UpdateGroup);
  useEffect(() => {
    if (group) setValues(groupFormValues(group));
  }, [group]);
  const set = <K extends keyof GroupFormValues>(key: K, value: GroupFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const busy = created.fetching || updated.fetching;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = groupInput(values);
    const result = editing ? await update({ id: group.id, input }) : await create({ input });
    if (result.error) return setErrors({ byField: {}, general: [result.error.message] });
    const payload = result.data && ('updateCheckGroup' in result.data ? result.data.updateCheckGroup : 'createCheckGroup' in result.data ? result.data.createCheckGroup : null);
    if (!payload) return;
    if (payload.userErrors.length) {
      const found = fieldErrors(payload.userErrors, GROUP_FORM_FIELDS);
      setErrors(found);
      const first = GROUP_FORM_FIELDS.find((f) => found.byField[f]);
      document.querySelector<HTMLElement>(first ? `[data-field="${first}"]` : '.form-error')?.focus();
      return;
    }
    setErrors(NO_ERRORS);
    if (!editing && payload.checkGroup) navigate(`/groups/${encodeURIComponent(payload.checkGroup.id)}`);
    else setMessage(`Saved ${payload.checkGroup?.name ?? 'the group'}.`);
  }

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="group-form-title">
      <h2 id="group-form-title">{editing ? 'Settings' : 'New group'}</h2>
      {/* A group a project deploys is read-only here: its next deploy would undo the edit. */}
      <fieldset className="plain-fieldset" disabled={readOnly}>
      {errors.general.length > 0 && <div className="form-error" role="alert" tabIndex={-1}>{errors.general.map((m) => <p key={m}>{m}</p>)}</div>}
      {message && <p role="status" className="muted">{message}</p>}
      <Field label="Group name" field="name" errors={errors}>{(props) => <input {...props} value={values.name} onChange={(e) => set('name', e.target.value)} />}</Field>
      <div className="field-row">
        <Field label="Group tags" field="tags" errors={errors} hint="Separated by commas; the group's checks inherit them." grow>
          {(props) => <input {...props} value={values.tags} onChange={(e) => set('tags', e.target.value)} />}
        </Field>
        <Field label="Concurrency" field="concurrency" errors={errors} hint="Checks run at once.">
          {(props) => <input {...props} inputMode="numeric" value={values.concurrency} onChange={(e) => set('concurrency', e.target.value)} />}
        </Field>
      </div>
      <LocationsField locations={locations} selected={values.locations} errors={errors.byField.locations} onChange={(l) => set('locations', l)} />
      <label className="checkbox"><input type="checkbox" checked={values.activated} onChange={(e) => set('activated', e.target.checked)} /> Activated</label>
      <label className="checkbox"><input type="checkbox" checked={values.muted} onChange={(e) => set('muted', e.target.checked)} /> Muted (no alerts)</label>
      <div className="actions"><button type="submit" className="button button--primary" disabled={busy}>{busy ? 'Saving…' : editing ? 'Save group' : 'Create group'}</button></div>
      </fieldset>
    </form>
  );
}
