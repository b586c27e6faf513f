import { CHANNEL_TYPE_LABELS, type ChannelType } from '../alert-channels/alert-channel-form.js';
import type { FieldErrors } from '../shared/user-errors.js';
import { Field } from './check-form.js';
import {
  MINUTES_FAILING_THRESHOLDS, REMINDER_AMOUNTS, reminderAmountLabel, RETRY_TYPE_LABELS, RETRY_TYPES, type CheckAlertingValues, type RetryType, type SubscriptionRow,
} from './check-alerting-form.js';

/** An alert channel the form offers: its REST id, type and what it reaches (an address, a channel name). */
export interface OfferedChannel {
  id: string;
  alertChannelId: number;
  type: string;
  reaches: string;
}

type Change = (alerting: CheckAlertingValues) => void;

/** Retries (not for heartbeats), escalation and reminders, and the channels alerts go to. */
export function CheckAlertingFields({ values, errors, channels, retries, onChange }: {
  values: CheckAlertingValues; errors: FieldErrors; channels: readonly OfferedChannel[]; retries: boolean; onChange: Change;
}) {
  const set = <K extends keyof CheckAlertingValues>(key: K, value: CheckAlertingValues[K]) => onChange({ ...values, [key]: value });
  return (
    <>
      {retries && <RetryFields values={values} errors={errors} set={set} />}
      <fieldset className="field" data-field="alertSettings" tabIndex={-1}>
        <legend>Alert settings</legend>
        <label className="checkbox">
          <input type="checkbox" name="useGlobalAlertSettings" checked={values.useGlobalAlertSettings} onChange={(e) => set('useGlobalAlertSettings', e.target.checked)} />
          Use the account&apos;s alert settings
        </label>
        {!values.useGlobalAlertSettings && (
          <>
            <div className="field-row">
              <Field label="Alert when" field="alertSettings.escalationType" errors={errors}>
                {(props) => (
                  <select {...props} value={values.escalationType} onChange={(e) => set('escalationType', e.target.value as CheckAlertingValues['escalationType'])}>
                    <option value="RUN_BASED">it failed a number of runs in a row</option>
                    <option value="TIME_BASED">it has been failing for some minutes</option>
                  </select>
                )}
              </Field>
              {values.escalationType === 'RUN_BASED' ? (
                <Field label="Failed runs in a row" field="alertSettings.runBasedEscalation.failedRunThreshold" errors={errors} hint="1 to 5.">
                  {(props) => <select {...props} value={values.failedRunThreshold} onChange={(e) => set('failedRunThreshold', e.target.value)}>{[1, 2, 3, 4, 5].map((n) => <option key={n}>{n}</option>)}</select>}
                </Field>
              ) : (
                <Field label="Minutes failing" field="alertSettings.timeBasedEscalation.minutesFailingThreshold" errors={errors}>
                  {(props) => <select {...props} value={values.minutesFailingThreshold} onChange={(e) => set('minutesFailingThreshold', e.target.value)}>{MINUTES_FAILING_THRESHOLDS.map((n) => <option key={n}>{n}</option>)}</select>}
                </Field>
              )}
            </div>
            <div className="field-row">
              <Field label="Reminders" field="alertSettings.reminders.amount" errors={errors} hint="While the check keeps failing.">
                {(props) => (
                  <select {...props} value={values.reminderAmount} onChange={(e) => set('reminderAmount', e.target.value)}>
                    {REMINDER_AMOUNTS.map((n) => <option key={n} value={n}>{reminderAmountLabel(n)}</option>)}
                  </select>
                )}
              </Field>
              {values.reminderAmount !== '0' && (
                <Field label="Minutes between reminders" field="alertSettings.reminders.interval" errors={errors} hint="1 to 1440.">
                  {(props) => <input {...props} inputMode="numeric" value={values.reminderInterval} onChange={(e) => set('reminderInterval', e.target.value)} />}
                </Field>
              )}
            </div>
          </>
        )}
      </fieldset>
      <ChannelFields subscriptions={values.subscriptions} channels={channels} errors={errors} onChange={(subscriptions) => set('subscriptions', subscriptions)} />
    </>
  );
}

function RetryFields({ values, errors, set }: {
  values: CheckAlertingValues; errors: FieldErrors; set: <K extends keyof CheckAlertingValues>(key: K, value: CheckAlertingValues[K]) => void;
}) {
  return (
    <fieldset className="field" data-field="retryStrategy" tabIndex={-1}>
      <legend>Retries</legend>
      <p className="hint">A failed run is retried before it counts as failed.</p>
      <div className="field-row">
        <Field label="Retry strategy" field="retryStrategy.type" errors={errors}>
          {(props) => (
            <select {...props} value={values.retryType} onChange={(e) => set('retryType', e.target.value as RetryType | '')}>
              {(['', ...RETRY_TYPES] as const).map((t) => <option key={t} value={t}>{RETRY_TYPE_LABELS[t]}</option>)}
            </select>
          )}
        </Field>
        {values.retryType && (
          <Field label="Wait before retrying (s)" field="retryStrategy.baseBackoffSeconds" errors={errors} hint="0 to 600.">
            {(props) => <input {...props} inputMode="decimal" value={values.baseBackoffSeconds} onChange={(e) => set('baseBackoffSeconds', e.target.value)} />}
          </Field>
        )}
        {values.retryType && values.retryType !== 'SINGLE_RETRY' && (
          <>
            <Field label="Retries at most" field="retryStrategy.maxRetries" errors={errors} hint="1 to 10.">
              {(props) => <input {...props} inputMode="numeric" value={values.maxRetries} onChange={(e) => set('maxRetries', e.target.value)} />}
            </Field>
            <Field label="Retrying for at most (s)" field="retryStrategy.maxDurationSeconds" errors={errors} hint="0 to 600.">
              {(props) => <input {...props} inputMode="numeric" value={values.maxDurationSeconds} onChange={(e) => set('maxDurationSeconds', e.target.value)} />}
            </Field>
          </>
        )}
      </div>
      {values.retryType && (
        <label className="checkbox"><input type="checkbox" name="retryStrategy.sameRegion" checked={values.sameRegion} onChange={(e) => set('sameRegion', e.target.checked)} /> Retry from the same location</label>
      )}
    </fieldset>
  );
}

/** A checkbox per alert channel; a new check (subscriptions null) starts with every channel, as the API would. */
function ChannelFields({ subscriptions, channels, errors, onChange }: {
  subscriptions: SubscriptionRow[] | null; channels: readonly OfferedChannel[]; errors: FieldErrors; onChange(subscriptions: SubscriptionRow[]): void;
}) {
  const messages = errors.byField.alertChannelSubscriptions ?? [];
  const isOn = (id: number) => (subscriptions === null ? true : subscriptions.some((s) => s.alertChannelId === id && s.activated));
  const toggle = (id: number, on: boolean) => {
    const current = subscriptions ?? channels.map((c) => ({ alertChannelId: c.alertChannelId, activated: true }));
    const others = current.filter((s) => s.alertChannelId !== id);
    onChange(on ? [...others, { alertChannelId: id, activated: true }] : others);
  };
  return (
    <fieldset className="field" data-field="alertChannelSubscriptions" tabIndex={-1} aria-invalid={messages.length ? true : undefined}>
      <legend>Alert channels</legend>
      {channels.length === 0 ? <p className="hint">No alert channels yet: add one under Alert channels, then pick it here.</p> : (
        <div className="checkbox-grid">
          {channels.map((c) => (
            <label key={c.id} className="checkbox">
              <input type="checkbox" name="alertChannel" value={c.alertChannelId} checked={isOn(c.alertChannelId)} onChange={(e) => toggle(c.alertChannelId, e.target.checked)} />
              {CHANNEL_TYPE_LABELS[c.type as ChannelType] ?? c.type} <span className="muted">{c.reaches}</span>
            </label>
          ))}
        </div>
      )}
      {messages.length > 0 && <p className="field-error" role="alert" data-error-for="alertChannelSubscriptions">{messages.join(' ')}</p>}
    </fieldset>
  );
}
