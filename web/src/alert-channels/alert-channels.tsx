import { useState, type FormEvent } from 'react';
import { useAccess } from '../access/use-access.js';
import { useClient, useMutation, useQuery, type AnyVariables, type TypedDocumentNode } from 'urql';
import { graphql } from '../__generated__/gql.js';
import { Field } from '../checks/check-form.js';
import { ErrorNotice } from '../shared/error-notice.js';
import { Link } from '../shared/link.js';
import {
  CHANNEL_FORM_FIELDS, CHANNEL_TYPE_LABELS, CHANNEL_TYPES, channelFormProblems, channelFormValues, channelInput, channelSummary, EMPTY_CHANNEL_FORM,
  type ChannelFormValues, type ChannelType,
} from './alert-channel-form.js';
import { useSendTest } from './use-send-test.js';
import { SubscribeChecksForm } from './subscribe-checks-form.js';
import { TemplateVariableList } from './template-variable-list.js';
import { fieldErrors, type FieldErrors, type UserErrorLike } from '../shared/user-errors.js';

// Secret config fields (a Slack URL, webhook secrets, provider keys) are never asked for: the page cannot show what it never reads.
const ChannelsQuery = graphql(`
  query ConsoleAlertChannels {
    checks(first: 100) { nodes { id checkId name } }
    checkGroups(first: 100) { nodes { id groupId name } }
    alertChannels(first: 100) {
      totalCount
      nodes {
        id alertChannelId type sendFailure sendRecovery sendDegraded sslExpiry autoSubscribe
        subscriptions { subscriptionId activated checkId groupId check { id name } group { id name } }
        ... on EmailAlertChannel { emailConfig: config { address } }
        ... on WebhookAlertChannel { webhookConfig: config { name url method template } }
        ... on SlackAlertChannel { slackConfig: config { channel } }
        ... on SlackAppAlertChannel { slackAppConfig: config { channel } }
        ... on SmsAlertChannel { smsConfig: config { name number } }
        ... on CallAlertChannel { callConfig: config { name number } }
        ... on PagerdutyAlertChannel { pagerdutyConfig: config { account serviceName } }
        ... on OpsgenieAlertChannel { opsgenieConfig: config { name region priority } }
      }
    }
  }
`);

const Create = {
  EMAIL: graphql(`mutation ConsoleCreateEmailChannel($input: EmailAlertChannelInput!) { createEmailAlertChannel(input: $input) { alertChannel { id } userErrors { field code message } } }`),
  WEBHOOK: graphql(`mutation ConsoleCreateWebhookChannel($input: WebhookAlertChannelInput!) { createWebhookAlertChannel(input: $input) { alertChannel { id } userErrors { field code message } } }`),
  SLACK: graphql(`mutation ConsoleCreateSlackChannel($input: SlackAlertChannelInput!) { createSlackAlertChannel(input: $input) { alertChannel { id } userErrors { field code message } } }`),
  SLACK_APP: graphql(`mutation ConsoleCreateSlackAppChannel($input: SlackAppAlertChannelInput!) { createSlackAppAlertChannel(input: $input) { alertChannel { id } userErrors { field code message } } }`),
  SMS: graphql(`mutation ConsoleCreateSmsChannel($input: SmsAlertChannelInput!) { createSmsAlertChannel(input: $input) { alertChannel { id } userErrors { field code message } } }`),
  CALL: graphql(`mutation ConsoleCreateCallChannel($input: CallAlertChannelInput!) { createCallAlertChannel(input: $input) { alertChannel { id } userErrors { field code message } } }`),
  PAGERDUTY: graphql(`mutation ConsoleCreatePagerdutyChannel($input: PagerdutyAlertChannelInput!) { createPagerdutyAlertChannel(input: $input) { alertChannel { id } userErrors { field code message } } }`),
  OPSGENIE: graphql(`mutation ConsoleCreateOpsgenieChannel($input: OpsgenieAlertChannelInput!) { createOpsgenieAlertChannel(input: $input) { alertChannel { id } userErrors { field code message } } }`),
};
const Update = {
  EMAIL: graphql(`mutation ConsoleUpdateEmailChannel($id: ID!, $input: EmailAlertChannelInput!) { updateEmailAlertChannel(id: $id, input: $input) { alertChannel { id } userErrors { field code message } } }`),
  WEBHOOK: graphql(`mutation ConsoleUpdateWebhookChannel($id: ID!, $input: WebhookAlertChannelInput!) { updateWebhookAlertChannel(id: $id, input: $input) { alertChannel { id } userErrors { field code message } } }`),
  SLACK: graphql(`mutation ConsoleUpdateSlackChannel($id: ID!, $input: SlackAlertChannelInput!) { updateSlackAlertChannel(id: $id, input: $input) { alertChannel { id } userErrors { field code message } } }`),
  SLACK_APP: graphql(`mutation ConsoleUpdateSlackAppChannel($id: ID!, $input: SlackAppAlertChannelInput!) { updateSlackAppAlertChannel(id: $id, input: $input) { alertChannel { id } userErrors { field code message } } }`),
  SMS: graphql(`mutation ConsoleUpdateSmsChannel($id: ID!, $input: SmsAlertChannelInput!) { updateSmsAlertChannel(id: $id, input: $input) { alertChannel { id } userErrors { field code message } } }`),
  CALL: graphql(`mutation ConsoleUpdateCallChannel($id: ID!, $input: CallAlertChannelInput!) { updateCallAlertChannel(id: $id, input: $input) { alertChannel { id } userErrors { field code message } } }`),
  PAGERDUTY: graphql(`mutation ConsoleUpdatePagerdutyChannel($id: ID!, $input: PagerdutyAlertChannelInput!) { updatePagerdutyAlertChannel(id: $id, input: $input) { alertChannel { id } userErrors { field code message } } }`),
  OPSGENIE: graphql(`mutation ConsoleUpdateOpsgenieChannel($id: ID!, $input: OpsgenieAlertChannelInput!) { updateOpsgenieAlertChannel(id: $id, input: $input) { alertChannel { id } userErrors { field code message } } }`),
};
const DeleteChannel = graphql(`
  mutation ConsoleDeleteAlertChannel($id: ID!) { deleteAlertChannel(id: $id) { deletedId userErrors { field code message } } }
`);
const UpdateSubscriptions = graphql(`
  mutation ConsoleUpdateChannelSubscriptions($id: ID!, $subscriptions: [AlertChannelSubscriberInput!]!) {
    updateAlertChannelSubscriptions(id: $id, subscriptions: $subscriptions) {
      alertChannel { id subscriptions { subscriptionId activated checkId groupId check { id name } group { id name } } }
      userErrors { field code message }
    }
  }
`);

type ChannelNode = NonNullable<ReturnType<typeof useChannels>['data']>['alertChannels']['nodes'][number];
type Payload = { alertChannel?: { id: string } | null; userErrors: readonly UserErrorLike[] };
const NO_ERRORS: FieldErrors = { byField: {}, general: [] };

function useChannels() {
  const [result, reexecute] = useQuery({ query: ChannelsQuery, requestPolicy: 'cache-and-network' });
  return { ...result, refresh: () => reexecute({ requestPolicy: 'network-only' }) };
}

/** The channel's config as read (never with secrets: the query does not ask for them). */
function configOf(channel: ChannelNode): Record<string, unknown> {
  const c = channel as unknown as Record<string, unknown>;
  const found = ['emailConfig', 'webhookConfig', 'slackConfig', 'slackAppConfig', 'smsConfig', 'callConfig', 'pagerdutyConfig', 'opsgenieConfig'].map((k) => c[k]).find(Boolean);
  return (found ?? {}) as Record<string, unknown>;
}

/** Alert channels: listed with their subscribed checks, created and edited (secrets write-only), deleted, checks subscribed. */
export function AlertChannels() {
  const { data, error, refresh } = useChannels();
  const [editing, setEditing] = useState<ChannelNode | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const { can } = useAccess();
  if (error && !data) return <ErrorNotice error={error} />;
  if (!data) return <p aria-busy="true">Loading…</p>;
  return (
    <section aria-labelledby="channels-title">
      <h1 id="channels-title">Alert channels</h1>
      {message && <p role="status" className="muted">{message}</p>}
      {data.alertChannels.nodes.length === 0 ? <p className="muted">No alert channels yet: add one below, then subscribe checks to it.</p> : (
        <ul className="plain-list channel-list" aria-label="Alert channels">
          {data.alertChannels.nodes.map((channel) => (
            <ChannelItem key={channel.id} channel={channel} checks={data.checks.nodes} groups={data.checkGroups.nodes} onEdit={() => setEditing(channel)} onChanged={(m) => { setMessage(m); refresh(); }} />
          ))}
        </ul>
      )}
      {can('write') && <ChannelForm key={editing?.id ?? 'new'} channel={editing} onDone={(m) => { setEditing(null); setMessage(m); refresh(); }} onCancel={() => setEditing(null)} />}
    </section>
  );
}

function ChannelItem({ channel, checks, groups, onEdit, onChanged }: {
  channel: ChannelNode; checks: readonly { id: string; checkId: string; name: string }[]; groups: readonly { id: string; groupId: number; name: string }[];
  onEdit(): void; onChanged(message: string): void;
}) {
  const [deleting, remove] = useMutation(DeleteChannel);
  const [subscribing, subscribe] = useMutation(UpdateSubscriptions);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const test = useSendTest(channel.id);
  // Sending a test, editing, deleting and (un)subscribing all change or use the channel: Read & Write and up.
  const canWrite = useAccess().can('write');
  const summary = channelSummary({ type: channel.type, config: configOf(channel) });
  const label = `${CHANNEL_TYPE_LABELS[channel.type as ChannelType] ?? channel.type} ${summary}`;
  const subscribed = new Set(channel.subscriptions.map((s) => s.checkId).filter(Boolean));
  const available = checks.filter((c) => !subscribed.has(c.checkId));
  const subscribedGroups = new Set(channel.subscriptions.map((s) => s.groupId).filter((g) => g !== null && g !== undefined).map(String));
  const availableGroups = groups.filter((g) => !subscribedGroups.has(String(g.groupId)));

  async function del() {
    const result = await remove({ id: channel.id });
    const problems = result.error ? [result.error.message] : (result.data?.deleteAlertChannel.userErrors ?? []).map((e) => e.message);
    if (problems.length) setProblem(problems.join(' '));
    else onChanged(`Deleted the ${label} channel.`);
  }

  async function setSubscriptions(next: { checkId?: string; groupId?: string; activated: boolean }[], done: string) {
    const result = await subscribe({ id: channel.id, subscriptions: next });
    const problems = result.error ? [result.error.message] : (result.data?.updateAlertChannelSubscriptions.userErrors ?? []).map((e) => e.message);
    if (problems.length) return setProblem(problems.join(' '));
    setProblem(null);
    onChanged(done);
  }
  const current = channel.subscriptions.map((s) => ({ ...(s.checkId ? { checkId: s.checkId } : {}), ...(s.groupId != null ? { groupId: String(s.groupId) } : {}), activated: s.activated }));

  return (
    <li className="card" data-channel-id={channel.id} aria-label={label}>
      <div className="heading-row">
        <h2 className="channel-title">{CHANNEL_TYPE_LABELS[channel.type as ChannelType] ?? channel.type} <span className="muted mono">{summary}</span></h2>
        {canWrite && <div className="actions" role="group" aria-label={`Actions of ${label}`}>
          <button type="button" className="button button--small" disabled={test.sending} onClick={test.send} aria-label={`Send a test message to ${label}`}>
            {test.sending ? 'Sending…' : 'Send test'}
          </button>
          <button type="button" className="button button--small" onClick={onEdit} aria-label={`Edit ${label}`}>Edit</button>
          {!confirming ? <button type="button" className="button button--small" onClick={() => setConfirming(true)} aria-label={`Delete ${label}`}>Delete</button> : (
            <>
              <button type="button" className="button button--small button--danger" disabled={deleting.fetching} onClick={del} autoFocus>Confirm delete</button>
              <button type="button" className="button button--small" onClick={() => setConfirming(false)}>Cancel</button>
            </>
          )}
        </div>}
      </div>
      <p className="muted">
        Alerts on {[channel.sendFailure && 'failure', channel.sendDegraded && 'degraded', channel.sendRecovery && 'recovery', channel.sslExpiry && 'certificate expiry'].filter(Boolean).join(', ') || 'nothing'}
        {channel.autoSubscribe ? '; new checks subscribe automatically' : ''}.
      </p>
      {test.outcome && (
        <p className={test.outcome.ok ? 'test-outcome test-outcome--ok' : 'form-error test-outcome'} role={test.outcome.ok ? 'status' : 'alert'}>{test.outcome.text}</p>
      )}
      {problem && <p className="form-error" role="alert">{problem}</p>}
      <h3 className="visually-hidden">Subscriptions</h3>
      {channel.subscriptions.length === 0 ? <p className="muted">No check or group subscribed.</p> : (
        <ul className="plain-list" aria-label={`Subscribed to ${label}`}>
          {channel.subscriptions.map((s) => {
            const name = s.check?.name ?? s.group?.name ?? s.checkId ?? String(s.groupId);
            return (
              <li key={s.subscriptionId}>
                {s.check ? <Link to={`/checks/${encodeURIComponent(s.check.id)}`}>{s.check.name}</Link> : s.group ? <>Group <Link to={`/groups/${encodeURIComponent(s.group.id)}`}>{s.group.name}</Link></> : name}
                {!s.activated && <span className="muted"> (paused)</span>}
                {canWrite && <button type="button" className="button button--small" disabled={subscribing.fetching} aria-label={`Unsubscribe ${name} from ${label}`}
                  onClick={() => setSubscriptions(current.filter((c) => (s.checkId ? c.checkId !== s.checkId : c.groupId !== String(s.groupId))), `Unsubscribed ${name}.`)}>Unsubscribe</button>}
              </li>
            );
          })}
        </ul>
      )}
      {canWrite && (available.length > 0 || availableGroups.length > 0) && (
        <SubscribeChecksForm channelId={channel.id} label={label} checks={available} groups={availableGroups} onDone={onChanged} />
      )}
    </li>
  );
}

function ChannelForm({ channel, onDone, onCancel }: { channel: ChannelNode | null; onDone(message: string): void; onCancel(): void }) {
  const client = useClient();
  const editing = channel !== null;
  const [stored] = useState(() => (channel ? channelFormValues({ ...channel, config: configOf(channel) }) : null));
  const [values, setValues] = useState<ChannelFormValues>(() => stored ?? EMPTY_CHANNEL_FORM);
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const type = values.type;
  const fields = CHANNEL_FORM_FIELDS[type];
  const set = <K extends keyof ChannelFormValues>(key: K, value: ChannelFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const text = (key: keyof ChannelFormValues) => ({ value: values[key] as string, onChange: (e: { target: { value: string } }) => set(key, e.target.value as never) });
  // Secrets: a password input, never prefilled; on edit, empty keeps the stored one.
  const secretProps = (key: keyof ChannelFormValues) => ({ ...text(key), type: 'password', autoComplete: 'new-password', spellCheck: false });
  const secretHint = editing ? 'Write-only: never shown again. Leave empty to keep the stored one.' : 'Write-only: never shown again once saved.';

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = channelFormProblems(values, stored);
    if (Object.keys(problems).length) {
      setErrors({ byField: problems, general: [] });
      document.querySelector<HTMLElement>(`.channel-form [data-field="${Object.keys(problems)[0]}"]`)?.focus();
      return;
    }
    setBusy(true);
    const input = channelInput(values, { editing });
    const mutation = (editing ? Update[type] : Create[type]) as TypedDocumentNode<Record<string, Payload>, AnyVariables>;
    const result = await client.mutation(mutation, editing ? { id: channel.id, input } : { input }).toPromise();
    setBusy(false);
    if (result.error) return setErrors({ byField: {}, general: [result.error.message] });
    const payload = result.data ? Object.values(result.data)[0] : undefined;
    if (!payload) return;
    if (payload.userErrors.length) {
      const found = fieldErrors(payload.userErrors, fields);
      setErrors(found);
      const first = fields.find((f) => found.byField[f]);
      document.querySelector<HTMLElement>(first ? `.channel-form [data-field="${first}"]` : '.channel-form .form-error')?.focus();
      return;
    }
    setErrors(NO_ERRORS);
    if (!editing) setValues({ ...EMPTY_CHANNEL_FORM, type });
    onDone(editing ? `Saved the ${CHANNEL_TYPE_LABELS[type]} channel.` : `Added a ${CHANNEL_TYPE_LABELS[type]} channel.`);
  }

  return (
    <form className="card channel-form" onSubmit={submit} noValidate aria-labelledby="channel-form-title" data-channel-type={type}>
      <h2 id="channel-form-title">{editing ? `Edit the ${CHANNEL_TYPE_LABELS[type]} channel` : 'Add an alert channel'}</h2>
      {errors.general.length > 0 && <div className="form-error" role="alert" tabIndex={-1}>{errors.general.map((m) => <p key={m}>{m}</p>)}</div>}
      {!editing && (
        <Field label="Channel type" field="type" errors={errors}>
          {(props) => <select {...props} value={type} onChange={(e) => { set('type', e.target.value as ChannelType); setErrors(NO_ERRORS); }}>
            {CHANNEL_TYPES.map((t) => <option key={t} value={t}>{CHANNEL_TYPE_LABELS[t]}</option>)}
          </select>}
        </Field>
      )}
      {type === 'EMAIL' && <Field label="Email address" field="config.address" errors={errors}>{(p) => <input {...p} type="email" autoComplete="email" {...text('address')} />}</Field>}
      {(type === 'WEBHOOK' || type === 'SMS' || type === 'CALL' || type === 'OPSGENIE') && (
        <Field label="Channel name" field="config.name" errors={errors}>{(p) => <input {...p} {...text('name')} />}</Field>
      )}
      {type === 'WEBHOOK' && (
        <>
          <div className="field-row">
            <Field label="Method" field="config.method" errors={errors}>
              {(p) => <select {...p} {...text('method')}>{['POST', 'PUT', 'PATCH', 'GET', 'DELETE', 'HEAD'].map((m) => <option key={m}>{m}</option>)}</select>}
            </Field>
            <Field label="Webhook URL" field="config.url" errors={errors} grow>{(p) => <input {...p} type="url" inputMode="url" placeholder="https://hooks.example.com/lookout" {...text('url')} />}</Field>
          </div>
          <Field label="Body template" field="config.template" errors={errors} hint="Optional; empty sends the default JSON body.">
            {(p) => <textarea {...p} rows={4} className="mono" spellCheck={false} {...text('template')} />}
          </Field>
          <TemplateVariableList />
          <Field label="Webhook secret" field="config.webhookSecret" errors={errors} hint={`Signs each delivery. ${secretHint}`}>{(p) => <input {...p} {...secretProps('webhookSecret')} />}</Field>
        </>
      )}
      {type === 'SLACK' && (
        <>
          <Field label="Slack webhook URL" field="config.url" errors={errors} hint={secretHint}>{(p) => <input {...p} {...secretProps('url')} placeholder={editing ? '' : 'https://hooks.slack.com/services/…'} />}</Field>
          <Field label="Slack channel" field="config.channel" errors={errors} hint={editing ? 'Optional, such as #alerts. Changing it needs the webhook URL again.' : 'Optional, such as #alerts.'}>{(p) => <input {...p} {...text('channel')} />}</Field>
        </>
      )}
      {type === 'SLACK_APP' && <Field label="Slack channel" field="config.channel" errors={errors}>{(p) => <input {...p} placeholder="#alerts" {...text('channel')} />}</Field>}
      {(type === 'SMS' || type === 'CALL') && (
        <Field label="Phone number" field="config.number" errors={errors} hint="International format, such as +31612345678.">{(p) => <input {...p} type="tel" autoComplete="tel" {...text('number')} />}</Field>
      )}
      {type === 'PAGERDUTY' && (
        <>
          <div className="field-row">
            <Field label="PagerDuty account" field="config.account" errors={errors} grow>{(p) => <input {...p} {...text('account')} />}</Field>
            <Field label="Service name" field="config.serviceName" errors={errors} grow>{(p) => <input {...p} {...text('serviceName')} />}</Field>
          </div>
          <Field label="Service key" field="config.serviceKey" errors={errors} hint={secretHint}>{(p) => <input {...p} {...secretProps('serviceKey')} />}</Field>
        </>
      )}
      {type === 'OPSGENIE' && (
        <>
          <Field label="Opsgenie API key" field="config.apiKey" errors={errors} hint={secretHint}>{(p) => <input {...p} {...secretProps('apiKey')} />}</Field>
          <div className="field-row">
            <Field label="Region" field="config.region" errors={errors}>{(p) => <select {...p} {...text('region')}>{['US', 'EU'].map((r) => <option key={r}>{r}</option>)}</select>}</Field>
            <Field label="Priority" field="config.priority" errors={errors}>{(p) => <select {...p} {...text('priority')}>{['P1', 'P2', 'P3', 'P4', 'P5'].map((r) => <option key={r}>{r}</option>)}</select>}</Field>
          </div>
        </>
      )}
      <fieldset className="field">
        <legend>Alert on</legend>
        <div className="checkbox-grid">
          <label className="checkbox"><input type="checkbox" checked={values.sendFailure} onChange={(e) => set('sendFailure', e.target.checked)} /> Failure</label>
          <label className="checkbox"><input type="checkbox" checked={values.sendDegraded} onChange={(e) => set('sendDegraded', e.target.checked)} /> Degraded</label>
          <label className="checkbox"><input type="checkbox" checked={values.sendRecovery} onChange={(e) => set('sendRecovery', e.target.checked)} /> Recovery</label>
          <label className="checkbox"><input type="checkbox" checked={values.sslExpiry} onChange={(e) => set('sslExpiry', e.target.checked)} /> Certificate expiry</label>
        </div>
      </fieldset>
      <label className="checkbox"><input type="checkbox" checked={values.autoSubscribe} onChange={(e) => set('autoSubscribe', e.target.checked)} /> Subscribe new checks automatically</label>
      <div className="actions">
        <button type="submit" className="button button--primary" disabled={busy}>{busy ? 'Saving…' : editing ? 'Save channel' : 'Add channel'}</button>
        {editing && <button type="button" className="button" onClick={onCancel}>Cancel</button>}
      </div>
    </form>
  );
}
