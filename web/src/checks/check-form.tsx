import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useClient, useQuery, type AnyVariables, type TypedDocumentNode } from 'urql';
import { ManagedByProject } from '../shared/managed-by-project.js';
import { useManagingProject } from '../shared/use-managing-project.js';
import { graphql } from '../__generated__/gql.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { Link } from '../shared/link.js';
import { BODY_TYPE_LABELS, BODY_TYPES, type AssertionLike, type KeyValueRow } from './api-check-form.js';
import {
  API_ASSERTION_SOURCES, ASSERTION_COMPARISON_LABELS, ASSERTION_COMPARISONS, ASSERTION_SOURCE_LABELS, NEW_API_ASSERTION, propertyMeaning, showsProperty, showsTarget, type AssertionRow,
} from './assertion-rows.js';
import {
  CHECK_TYPE_LABELS, checkFormErrors, checkFormFields, checkFormValues, checkInput, DNS_PROTOCOLS, DNS_RECORD_TYPES, EMPTY_CHECK_FORM, FORM_CHECK_TYPES, HTTP_METHODS,
  IP_FAMILIES, isFormCheckType, storedAssertions, TIME_UNITS, type CheckFormValues, type FormCheckType, type StoredCheck,
} from './check-form-rules.js';
import { type FieldErrors, type UserErrorLike } from '../shared/user-errors.js';
import { channelSummary } from '../alert-channels/alert-channel-form.js';
import { CheckAlertingFields, type OfferedChannel } from './check-alerting-fields.js';
import { frequencyOptions } from './check-alerting-form.js';
import { navigate, useRoute } from '../shared/use-route.js';

const CheckFormQuery = graphql(`
  query ConsoleCheckForm($id: ID!, $editing: Boolean!) {
    locations { region name }
    checkGroups(first: 100) { nodes { id name } }
    alertChannels(first: 100) {
      nodes {
        id alertChannelId type
        ... on EmailAlertChannel { emailConfig: config { address } }
        ... on WebhookAlertChannel { webhookConfig: config { name } }
        ... on SlackAlertChannel { slackConfig: config { channel } }
        ... on SlackAppAlertChannel { slackAppConfig: config { channel } }
        ... on SmsAlertChannel { smsConfig: config { name number } }
        ... on CallAlertChannel { callConfig: config { name number } }
        ... on PagerdutyAlertChannel { pagerdutyConfig: config { serviceName } }
        ... on OpsgenieAlertChannel { opsgenieConfig: config { name } }
      }
    }
    check(id: $id) @include(if: $editing) { ...ConsoleSavedCheck }
  }
`);

// What the form reads of a check, and what a save answers (so the cache holds them afresh); each
// type's request under its own alias, as StoredCheck reads it.
graphql(`
  fragment ConsoleSavedCheck on Check {
    id name activated muted frequency frequencyOffset locations privateLocations tags checkType description updatedAt
    group { id name }
    useGlobalAlertSettings
    retryStrategy { type baseBackoffSeconds maxRetries maxDurationSeconds sameRegion }
    alertSettings { escalationType runBasedEscalation { failedRunThreshold } timeBasedEscalation { minutesFailingThreshold } reminders { amount interval } }
    alertChannelSubscriptions { alertChannelId activated }
    ... on ApiCheck { degradedResponseTime maxResponseTime apiRequest: request { method url bodyType body headers { key value locked } queryParameters { key value locked } assertions { source property comparison target regex } } }
    ... on UrlCheck { degradedResponseTime maxResponseTime urlRequest: request { url followRedirects skipSSL assertions { source property comparison target regex } } }
    ... on TcpCheck { degradedResponseTime maxResponseTime tcpRequest: request { hostname port data ipFamily assertions { source property comparison target regex } } }
    ... on DnsCheck { degradedResponseTime maxResponseTime dnsRequest: request { query recordType nameServer port protocol assertions { source property comparison target regex } } }
    ... on IcmpCheck { degradedResponseTime maxResponseTime icmpRequest: request { hostname ipFamily pingCount assertions { source property comparison target regex } } }
    ... on HeartbeatCheck { heartbeat { period periodUnit grace graceUnit pingUrl } }
    ... on BrowserCheck { script }
    ... on MultiStepCheck { script }
  }
`);

const Create = {
  API: graphql(`mutation ConsoleCreateApiCheck($input: ApiCheckInput!) { createApiCheck(input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
  URL: graphql(`mutation ConsoleCreateUrlCheck($input: UrlCheckInput!) { createUrlCheck(input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
  TCP: graphql(`mutation ConsoleCreateTcpCheck($input: TcpCheckInput!) { createTcpCheck(input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
  DNS: graphql(`mutation ConsoleCreateDnsCheck($input: DnsCheckInput!) { createDnsCheck(input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
  ICMP: graphql(`mutation ConsoleCreateIcmpCheck($input: IcmpCheckInput!) { createIcmpCheck(input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
  HEARTBEAT: graphql(`mutation ConsoleCreateHeartbeatCheck($input: HeartbeatCheckInput!) { createHeartbeatCheck(input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
  BROWSER: graphql(`mutation ConsoleCreateBrowserCheck($input: BrowserCheckInput!) { createBrowserCheck(input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
  MULTI_STEP: graphql(`mutation ConsoleCreateMultiStepCheck($input: MultiStepCheckInput!) { createMultiStepCheck(input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
};
const Update = {
  API: graphql(`mutation ConsoleUpdateApiCheck($id: ID!, $input: ApiCheckInput!) { updateApiCheck(id: $id, input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
  URL: graphql(`mutation ConsoleUpdateUrlCheck($id: ID!, $input: UrlCheckInput!) { updateUrlCheck(id: $id, input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
  TCP: graphql(`mutation ConsoleUpdateTcpCheck($id: ID!, $input: TcpCheckInput!) { updateTcpCheck(id: $id, input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
  DNS: graphql(`mutation ConsoleUpdateDnsCheck($id: ID!, $input: DnsCheckInput!) { updateDnsCheck(id: $id, input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
  ICMP: graphql(`mutation ConsoleUpdateIcmpCheck($id: ID!, $input: IcmpCheckInput!) { updateIcmpCheck(id: $id, input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
  HEARTBEAT: graphql(`mutation ConsoleUpdateHeartbeatCheck($id: ID!, $input: HeartbeatCheckInput!) { updateHeartbeatCheck(id: $id, input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
  BROWSER: graphql(`mutation ConsoleUpdateBrowserCheck($id: ID!, $input: BrowserCheckInput!) { updateBrowserCheck(id: $id, input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
  MULTI_STEP: graphql(`mutation ConsoleUpdateMultiStepCheck($id: ID!, $input: MultiStepCheckInput!) { updateMultiStepCheck(id: $id, input: $input) { check { ...ConsoleSavedCheck } userErrors { field code message reason } } }`),
};

type Payload = { check?: { id: string; name: string } | null; userErrors: readonly UserErrorLike[] };

const NO_ERRORS: FieldErrors = { byField: {}, general: [] };

const SCRIPT_PLACEHOLDER: Partial<Record<FormCheckType, string>> = {
  BROWSER: "const { test, expect } = require('@playwright/test');\n\ntest('home page', async ({ page }) => {\n  await page.goto('https://example.com');\n});",
  MULTI_STEP: "const { test, expect } = require('@playwright/test');\n\ntest('api flow', async ({ request }) => {\n  const response = await request.get('https://example.com/api');\n  expect(response.ok()).toBeTruthy();\n});",
};

/** Creates a check of any runnable type (`?type=TCP` preselects one), or edits one (`id`); the API's userErrors show on the fields they name. */
export function CheckForm({ id }: { id?: string }) {
  const editing = id !== undefined;
  const { search } = useRoute();
  const client = useClient();
  const [{ data, error }] = useQuery({ query: CheckFormQuery, variables: { id: id ?? '', editing } });
  // A check a project deploys is shown read-only: its next deploy would undo an edit made here.
  const managing = useManagingProject(id !== undefined ? { checkId: id } : null);
  const [values, setValues] = useState<CheckFormValues>(() => {
    const requested = new URLSearchParams(search).get('type') ?? '';
    return { ...EMPTY_CHECK_FORM, checkType: isFormCheckType(requested) ? requested : 'API' };
  });
  const [existingAssertions, setExistingAssertions] = useState<readonly AssertionLike[]>([]);
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const loadedCheck = data?.check as StoredCheck | null | undefined;
  useEffect(() => {
    if (!loadedCheck) return;
    const loaded = checkFormValues(loadedCheck);
    if (loaded) {
      setValues(loaded);
      setExistingAssertions(storedAssertions(loadedCheck));
    }
  }, [loadedCheck]);
  const firstLocation = data?.locations[0]?.region;
  useEffect(() => {
    // A new check runs somewhere by default: the first location offered.
    if (!editing && firstLocation) setValues((v) => (v.locations.length ? v : { ...v, locations: [firstLocation] }));
  }, [editing, firstLocation]);

  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading…</p>;
  if (editing && (!loadedCheck || !isFormCheckType(loadedCheck.checkType))) {
    return <section><h1>Cannot edit this check here</h1><p>The console edits {FORM_CHECK_TYPES.map((t) => CHECK_TYPE_LABELS[t]).join(', ')} checks; this one is {loadedCheck ? `a ${loadedCheck.checkType} check, deployed from code` : 'not found'}. <Link to="/checks">Back to the checks</Link>.</p></section>;
  }
  const type = values.checkType;
  const set = <K extends keyof CheckFormValues>(key: K, value: CheckFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const text = (key: keyof CheckFormValues) => ({ value: values[key] as string, onChange: (e: { target: { value: string } }) => set(key, e.target.value as never) });
  /** Replaces a list of rows; a removed row takes the row errors of its list with it (they name rows by position). */
  function changeRows<K extends 'headers' | 'queryParameters' | 'assertions'>(list: K, rows: CheckFormValues[K], removed = false) {
    set(list, rows);
    if (removed) setErrors((e) => ({ ...e, byField: Object.fromEntries(Object.entries(e.byField).filter(([f]) => !f.startsWith(`request.${list}.`))) }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const input = checkInput(values, { editing, existingAssertions, storedFrequency: loadedCheck?.frequency });
    setBusy(true);
    const mutation = (editing ? Update[type] : Create[type]) as TypedDocumentNode<Record<string, Payload>, AnyVariables>;
    const result = await client.mutation(mutation, editing ? { id, input } : { input }).toPromise();
    setBusy(false);
    if (result.error) {
      setErrors({ byField: {}, general: [result.error.message] });
      return;
    }
    const payload = result.data ? Object.values(result.data)[0] : undefined;
    if (!payload) return;
    if (payload.userErrors.length) {
      const found = checkFormErrors(payload.userErrors, type, values);
      setErrors(found);
      // Take the reader to the first problem.
      const first = checkFormFields(values).find((f) => found.byField[f]);
      document.querySelector<HTMLElement>(first ? `[data-field="${first}"]` : '.form-error')?.focus();
      return;
    }
    setErrors(NO_ERRORS);
    if (payload.check) navigate(`/checks/${encodeURIComponent(payload.check.id)}`);
  }

  const scheduled = type !== 'HEARTBEAT';
  const timed = ['API', 'URL', 'TCP', 'DNS', 'ICMP'].includes(type);
  return (
    <section aria-labelledby="form-title">
      <p><Link to={editing ? `/checks/${encodeURIComponent(id!)}` : '/checks'}>← {editing ? 'Back to the check' : 'Checks'}</Link></p>
      <h1 id="form-title">{editing ? `Edit ${loadedCheck?.name}` : `New ${CHECK_TYPE_LABELS[type].replace(/ \(.*\)$/, '')} check`}</h1>
      {managing && <ManagedByProject project={managing} noun="check" />}
      <form className="card check-form" onSubmit={submit} noValidate data-check-type={type}>
        <fieldset className="plain-fieldset" disabled={!!managing} aria-label={managing ? 'Settings (read-only: edit them in code)' : undefined}>
        {errors.general.length > 0 && <div className="form-error" role="alert" tabIndex={-1}>{errors.general.map((m) => <p key={m}>{m}</p>)}</div>}
        {editing ? <p className="muted">Type: {CHECK_TYPE_LABELS[type]}</p> : (
          <Field label="Check type" field="checkType" errors={errors}>
            {(props) => (
              <select {...props} value={type} onChange={(e) => {
                set('checkType', e.target.value as FormCheckType);
                setErrors(NO_ERRORS);
                navigate(`/checks/new?type=${e.target.value}`, { replace: true });
              }}>
                {FORM_CHECK_TYPES.map((t) => <option key={t} value={t}>{CHECK_TYPE_LABELS[t]}</option>)}
              </select>
            )}
          </Field>
        )}
        <Field label="Name" field="name" errors={errors}>{(props) => <input {...props} {...text('name')} />}</Field>

        {type === 'API' && (
          <>
            <div className="field-row">
              <Field label="Method" field="request.method" errors={errors}>
                {(props) => <select {...props} {...text('method')}>{HTTP_METHODS.map((m) => <option key={m}>{m}</option>)}</select>}
              </Field>
              <Field label="URL" field="request.url" errors={errors} grow>
                {(props) => <input {...props} type="url" inputMode="url" placeholder="https://example.com/health" {...text('url')} />}
              </Field>
            </div>
            <KeyValueRows list="headers" rows={values.headers} errors={errors} onChange={changeRows} />
            <KeyValueRows list="queryParameters" rows={values.queryParameters} errors={errors} onChange={changeRows} />
            <div className="field-row">
              <Field label="Body type" field="request.bodyType" errors={errors}>
                {(props) => <select {...props} {...text('bodyType')}>{BODY_TYPES.map((b) => <option key={b} value={b}>{BODY_TYPE_LABELS[b]}</option>)}</select>}
              </Field>
            </div>
            {(values.bodyType !== 'NONE' || values.body !== '') && (
              <Field label="Body" field="request.body" errors={errors} hint={values.bodyType === 'NONE' ? 'Sent with no body type; choose one or empty the body.' : undefined}>
                {(props) => <textarea {...props} rows={5} className="mono" spellCheck={false} {...text('body')} />}
              </Field>
            )}
            <AssertionRows rows={values.assertions} errors={errors} onChange={(assertions, removed) => changeRows('assertions', assertions, removed)} />
          </>
        )}
        {type === 'URL' && (
          <>
            <Field label="URL" field="request.url" errors={errors}>
              {(props) => <input {...props} type="url" inputMode="url" placeholder="https://example.com" {...text('url')} />}
            </Field>
            <label className="checkbox"><input type="checkbox" name="request.followRedirects" checked={values.followRedirects} onChange={(e) => set('followRedirects', e.target.checked)} /> Follow redirects</label>
            <label className="checkbox"><input type="checkbox" name="request.skipSSL" checked={values.skipSSL} onChange={(e) => set('skipSSL', e.target.checked)} /> Ignore TLS certificate errors</label>
          </>
        )}
        {(type === 'TCP' || type === 'ICMP') && (
          <div className="field-row">
            <Field label="Host" field="request.hostname" errors={errors} grow>
              {(props) => <input {...props} placeholder="db.example.com" autoCapitalize="off" spellCheck={false} {...text('hostname')} />}
            </Field>
            {type === 'TCP' && (
              <Field label="Port" field="request.port" errors={errors}>
                {(props) => <input {...props} inputMode="numeric" {...text('port')} />}
              </Field>
            )}
            {type === 'ICMP' && (
              <Field label="Pings per run" field="request.pingCount" errors={errors} hint="1 to 50; empty for the default.">
                {(props) => <input {...props} inputMode="numeric" {...text('pingCount')} />}
              </Field>
            )}
            <Field label="IP version" field="request.ipFamily" errors={errors}>
              {(props) => <select {...props} {...text('ipFamily')}>{IP_FAMILIES.map((f) => <option key={f}>{f}</option>)}</select>}
            </Field>
          </div>
        )}
        {type === 'TCP' && (
          <Field label="Data sent" field="request.data" errors={errors} hint="Optional: written once the connection opens.">
            {(props) => <textarea {...props} rows={3} className="mono" {...text('data')} />}
          </Field>
        )}
        {type === 'DNS' && (
          <>
            <div className="field-row">
              <Field label="Name queried" field="request.query" errors={errors} grow>
                {(props) => <input {...props} placeholder="example.com" autoCapitalize="off" spellCheck={false} {...text('query')} />}
              </Field>
              <Field label="Record type" field="request.recordType" errors={errors}>
                {(props) => <select {...props} {...text('recordType')}>{DNS_RECORD_TYPES.map((r) => <option key={r}>{r}</option>)}</select>}
              </Field>
            </div>
            <div className="field-row">
              <Field label="Name server" field="request.nameServer" errors={errors} grow hint="Empty for the system resolver.">
                {(props) => <input {...props} placeholder="1.1.1.1" autoCapitalize="off" spellCheck={false} {...text('nameServer')} />}
              </Field>
              <Field label="Port" field="request.port" errors={errors} hint="Empty for 53.">
                {(props) => <input {...props} inputMode="numeric" {...text('port')} />}
              </Field>
              <Field label="Protocol" field="request.protocol" errors={errors}>
                {(props) => <select {...props} {...text('protocol')}>{DNS_PROTOCOLS.map((p) => <option key={p}>{p}</option>)}</select>}
              </Field>
            </div>
          </>
        )}
        {type === 'HEARTBEAT' && (
          <>
            <div className="field-row">
              <Field label="Expected every" field="heartbeat.period" errors={errors}>
                {(props) => <input {...props} inputMode="numeric" {...text('period')} />}
              </Field>
              <Field label="Period unit" field="heartbeat.periodUnit" errors={errors}>
                {(props) => <select {...props} {...text('periodUnit')}>{TIME_UNITS.map((u) => <option key={u}>{u}</option>)}</select>}
              </Field>
              <Field label="Grace" field="heartbeat.grace" errors={errors}>
                {(props) => <input {...props} inputMode="numeric" {...text('grace')} />}
              </Field>
              <Field label="Grace unit" field="heartbeat.graceUnit" errors={errors}>
                {(props) => <select {...props} {...text('graceUnit')}>{TIME_UNITS.map((u) => <option key={u}>{u}</option>)}</select>}
              </Field>
            </div>
            {data.check && 'heartbeat' in data.check && data.check.heartbeat.pingUrl
              ? <p className="hint">Ping URL: <code className="mono">{data.check.heartbeat.pingUrl}</code></p>
              : <p className="hint">The ping URL is shown once the check is created.</p>}
          </>
        )}
        {(type === 'BROWSER' || type === 'MULTI_STEP') && (
          <Field label="Script" field="script" errors={errors} hint="A Playwright test file (JavaScript).">
            {(props) => <textarea {...props} rows={14} className="mono script-editor" spellCheck={false} placeholder={SCRIPT_PLACEHOLDER[type]} {...text('script')} />}
          </Field>
        )}

        {scheduled && (
          <div className="field-row">
            <Field label="Frequency" field="frequency" errors={errors}>
              {(props) => <select {...props} {...text('frequency')}>{frequencyOptions(type, values.frequency).map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}</select>}
            </Field>
            {timed && (
              <>
                <Field label="Degraded after (ms)" field="degradedResponseTime" errors={errors}>
                  {(props) => <input {...props} type="number" min={0} {...text('degradedResponseTime')} />}
                </Field>
                <Field label="Fails after (ms)" field="maxResponseTime" errors={errors}>
                  {(props) => <input {...props} type="number" min={0} {...text('maxResponseTime')} />}
                </Field>
              </>
            )}
          </div>
        )}
        <Field label="Tags" field="tags" errors={errors} hint="Separated by commas.">{(props) => <input {...props} {...text('tags')} />}</Field>
        <Field label="Group" field="group" errors={errors}>
          {(props) => (
            <select {...props} {...text('group')}>
              <option value="">No group</option>
              {data.checkGroups.nodes.map((g) => <option key={g.id} value={g.id}>{g.name}</option>)}
            </select>
          )}
        </Field>
        <Field label="Description" field="description" errors={errors} hint="Optional, up to 500 characters.">
          {(props) => <textarea {...props} rows={2} {...text('description')} />}
        </Field>
        {scheduled && <LocationsField locations={data.locations} selected={values.locations} errors={errors.byField.locations} onChange={(locations) => set('locations', locations)} />}
        <CheckAlertingFields values={values.alerting} errors={errors} channels={offeredChannels(data.alertChannels.nodes)} retries={scheduled} onChange={(alerting) => set('alerting', alerting)} />
        <label className="checkbox"><input type="checkbox" checked={values.activated} onChange={(e) => set('activated', e.target.checked)} /> {scheduled ? 'Run on schedule (activated)' : 'Activated'}</label>
        <div className="actions">
          <button type="submit" className="button button--primary" disabled={busy}>{busy ? 'Saving…' : editing ? 'Save check' : 'Create check'}</button>
        </div>
        </fieldset>
      </form>
    </section>
  );
}

type ChannelNode = Record<string, unknown> & { id: string; alertChannelId: number; type: string };

/** The account's channels as the form offers them, each with what it reaches (never a secret: the query asks for none). */
function offeredChannels(nodes: readonly ChannelNode[]): OfferedChannel[] {
  return nodes.map((node) => {
    const config = Object.entries(node).find(([key, value]) => key.endsWith('Config') && value && typeof value === 'object')?.[1] as Record<string, unknown> | undefined;
    return { id: node.id, alertChannelId: node.alertChannelId, type: node.type, reaches: config ? channelSummary({ type: node.type, config }) : '' };
  });
}

interface FieldProps {
  id: string;
  name: string;
  'data-field': string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A labelled control with its hint and the API's messages about it (announced, and tied to the input). */
export function Field({ label, field, errors, hint, grow, labelHidden, children }: {
  label: string; field: string; errors: FieldErrors; hint?: string; grow?: boolean; labelHidden?: boolean; children(props: FieldProps): ReactNode;
}) {
  const id = useId();
  const messages = errors.byField[field] ?? [];
  const describedBy = [hint ? `${id}-hint` : '', messages.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${grow ? ' field--grow' : ''}`}>
      <label htmlFor={id} className={labelHidden ? 'visually-hidden' : undefined}>{label}</label>
      {children({ id, name: field, 'data-field': field, 'aria-invalid': messages.length ? true : undefined, 'aria-describedby': describedBy })}
      {hint && <p id={`${id}-hint`} className="hint">{hint}</p>}
      {messages.length > 0 && <p id={`${id}-error`} className="field-error" role="alert" data-error-for={field}>{messages.join(' ')}</p>}
    </div>
  );
}

export function LocationsField({ locations, selected, errors, onChange }: { locations: readonly { region: string; name: string }[]; selected: readonly string[]; errors?: string[]; onChange(locations: string[]): void }) {
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

/** Focuses the control a row change names once it has rendered (a new row's first input, or the add button after a removal). */
function usePendingFocus() {
  const pending = useRef<string | null>(null);
  useEffect(() => {
    if (!pending.current) return;
    document.querySelector<HTMLElement>(pending.current)?.focus();
    pending.current = null;
  });
  return (selector: string) => { pending.current = selector; };
}

/** A list's own messages (`request.headers`: too many entries), shown above its rows. */
function ListErrors({ field, errors }: { field: string; errors: FieldErrors }) {
  const messages = errors.byField[field];
  return messages?.length ? <p className="field-error" role="alert" data-error-for={field}>{messages.join(' ')}</p> : null;
}

const KEY_VALUE_NAMES = {
  headers: { legend: 'Request headers', one: 'Header', add: 'Add header', keyHint: 'Authorization', removeName: 'header' },
  queryParameters: { legend: 'Query parameters', one: 'Parameter', add: 'Add query parameter', keyHint: 'page', removeName: 'query parameter' },
} as const;

/** Rows of name and value (request headers or query parameters), each labelled by its position. */
function KeyValueRows({ list, rows, errors, onChange }: {
  list: 'headers' | 'queryParameters'; rows: readonly KeyValueRow[]; errors: FieldErrors; onChange(list: 'headers' | 'queryParameters', rows: KeyValueRow[], removed?: boolean): void;
}) {
  const names = KEY_VALUE_NAMES[list];
  const focus = usePendingFocus();
  const field = `request.${list}`;
  const edit = (index: number, change: Partial<KeyValueRow>) => onChange(list, rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <fieldset className="field rows" data-field={field} tabIndex={-1}>
      <legend>{names.legend}</legend>
      <ListErrors field={field} errors={errors} />
      {rows.length > 0 && (
        <ol className="rows__list">
          {rows.map((row, i) => (
            <li key={i} className="rows__row rows__row--kv">
              <Field label={`${names.one} ${i + 1} name`} field={`${field}.${i}.key`} errors={errors} labelHidden>
                {(props) => <input {...props} placeholder={names.keyHint} autoCapitalize="off" spellCheck={false} value={row.key} onChange={(e) => edit(i, { key: e.target.value })} />}
              </Field>
              <Field label={`${names.one} ${i + 1} value`} field={`${field}.${i}.value`} errors={errors} labelHidden grow>
                {(props) => <input {...props} type={row.locked ? 'password' : 'text'} placeholder="Value" autoCapitalize="off" spellCheck={false} value={row.value} onChange={(e) => edit(i, { value: e.target.value })} />}
              </Field>
              <button type="button" className="button rows__remove" aria-label={`Remove ${names.removeName} ${i + 1}`} title={`Remove ${names.removeName} ${i + 1}`} onClick={() => {
                focus(`[data-add="${list}"]`);
                onChange(list, rows.filter((_, j) => j !== i), true);
              }}>✕</button>
            </li>
          ))}
        </ol>
      )}
      <div><button type="button" className="button button--small rows__add" data-add={list} onClick={() => {
        focus(`[data-field="${field}.${rows.length}.key"]`);
        onChange(list, [...rows, { key: '', value: '' }]);
      }}>{names.add}</button></div>
    </fieldset>
  );
}

/** An API check's assertions: source, property where the source reads one, comparison and target, a row each. */
function AssertionRows({ rows, errors, onChange }: { rows: readonly AssertionRow[]; errors: FieldErrors; onChange(rows: AssertionRow[], removed?: boolean): void }) {
  const focus = usePendingFocus();
  const field = 'request.assertions';
  const edit = (index: number, change: Partial<AssertionRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <fieldset className="field rows" data-field={field} tabIndex={-1}>
      <legend>Assertions</legend>
      <p className="hint">Every assertion must hold for a run to pass.</p>
      <ListErrors field={field} errors={errors} />
      {rows.length > 0 && (
        <ol className="rows__list">
          {rows.map((row, i) => {
            const n = i + 1;
            const sources: readonly string[] = API_ASSERTION_SOURCES.includes(row.source as never) ? API_ASSERTION_SOURCES : [...API_ASSERTION_SOURCES, row.source];
            return (
              <li key={i} className="rows__row rows__row--assertion">
                <Field label={`Assertion ${n} source`} field={`${field}.${i}.source`} errors={errors} labelHidden>
                  {(props) => (
                    <select {...props} value={row.source} onChange={(e) => edit(i, { source: e.target.value })}>
                      {sources.map((s) => <option key={s} value={s}>{ASSERTION_SOURCE_LABELS[s] ?? s}</option>)}
                    </select>
                  )}
                </Field>
                {showsProperty(row) && (
                  <Field label={`Assertion ${n} ${(propertyMeaning(row.source) ?? 'property').toLowerCase()}`} field={`${field}.${i}.property`} errors={errors} labelHidden grow>
                    {(props) => (
                      <input {...props} placeholder={propertyMeaning(row.source) === 'Header name' ? 'content-type' : '$.status'} autoCapitalize="off" spellCheck={false}
                        value={row.property} onChange={(e) => edit(i, { property: e.target.value })} />
                    )}
                  </Field>
                )}
                <Field label={`Assertion ${n} comparison`} field={`${field}.${i}.comparison`} errors={errors} labelHidden>
                  {(props) => (
                    <select {...props} value={row.comparison} onChange={(e) => edit(i, { comparison: e.target.value })}>
                      {ASSERTION_COMPARISONS.map((c) => <option key={c} value={c}>{ASSERTION_COMPARISON_LABELS[c]}</option>)}
                    </select>
                  )}
                </Field>
                {showsTarget(row) && (
                  <Field label={`Assertion ${n} target`} field={`${field}.${i}.target`} errors={errors} labelHidden grow>
                    {(props) => <input {...props} placeholder="Expected value" spellCheck={false} value={row.target} onChange={(e) => edit(i, { target: e.target.value })} />}
                  </Field>
                )}
                <button type="button" className="button rows__remove" aria-label={`Remove assertion ${n}`} title={`Remove assertion ${n}`} onClick={() => {
                  focus('[data-add="assertions"]');
                  onChange(rows.filter((_, j) => j !== i), true);
                }}>✕</button>
              </li>
            );
          })}
        </ol>
      )}
      <div><button type="button" className="button button--small rows__add" data-add="assertions" onClick={() => {
        focus(`[data-field="${field}.${rows.length}.source"]`);
        onChange([...rows, { ...NEW_API_ASSERTION, target: '' }]);
      }}>Add assertion</button></div>
    </fieldset>
  );
}
