/** A mutation's userError (schema: UserError). */
export interface UserErrorLike {
  field?: string | null;
  code: string;
  message: string;
  /** What kind of problem (REQUIRED, TOO_SHORT, NOT_ALLOWED, …); absent when the query did not ask or the API did not say. */
  reason?: string | null;
}

/** userErrors split into those a form field shows and those the form shows as a whole. */
export interface FieldErrors {
  /** Messages by form field name. */
  byField: Record<string, string[]>;
  /** Errors of no known field (the input as a whole, TOO_MANY_ERRORS, an unknown path). */
  general: string[];
}

/** How the console names input fields in sentences, by the last part of their path (others are spelled out from it). */
const FIELD_LABELS: Record<string, string> = {
  url: 'URL', hostname: 'Host', frequencyOffset: 'Frequency', degradedResponseTime: 'Degraded after', maxResponseTime: 'Fails after',
  startsAt: 'Start', endsAt: 'End', timezone: 'Time zone', repeatEndsAt: 'Repeat end', pingCount: 'Pings per run', nameServer: 'Name server',
  baseBackoffSeconds: 'Wait before retrying', maxRetries: 'Retries at most', maxDurationSeconds: 'Retrying time', failedRunThreshold: 'Failed runs in a row',
  minutesFailingThreshold: 'Minutes failing', interval: 'Minutes between reminders', amount: 'Reminders', alertChannelSubscriptions: 'Alert channels',
  groupId: 'Group', group: 'Group', alertChannel: 'Alert channel', recordType: 'Record type', bodyType: 'Body type', queryParameters: 'Query parameters',
};

/** The words for a field path: `request.url` → "URL", `request.assertions.0.target` → "Target", `repeatInterval` → "Repeat interval". */
export function fieldLabel(path: string | null | undefined): string {
  const named = (path ?? '').split('.').filter((part) => part && !/^\d+$/.test(part));
  const last = named[named.length - 1];
  if (!last || last === '(root)') return 'This';
  if (FIELD_LABELS[last]) return FIELD_LABELS[last];
  const words = last.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number', number: 'a number', string: 'text', boolean: 'yes or no', array: 'a list', object: 'a set of fields', null: 'empty',
};
const FORMAT_WORDS: Record<string, string> = {
  uri: 'a valid URL (https://…)', url: 'a valid URL (https://…)', email: 'an email address', 'date-time': 'a date and time', date: 'a date (YYYY-MM-DD)',
  uuid: 'an id', hostname: 'a host name', ipv4: 'an IPv4 address', ipv6: 'an IPv6 address',
};

/** The kind of problem a message tells, for answers that carry no reason (older servers, rules between fields). */
function reasonOf(message: string): string | null {
  if (/^is required\b/.test(message)) return 'REQUIRED';
  if (/^must NOT have fewer than \d+ characters/.test(message)) return 'TOO_SHORT';
  if (/^must NOT have more than \d+ characters/.test(message)) return 'TOO_LONG';
  if (/^must NOT have fewer than \d+ items/.test(message)) return 'TOO_FEW_ITEMS';
  if (/^must NOT have more than \d+ items/.test(message)) return 'TOO_MANY_ITEMS';
  if (/^must be [<>]=? ?-?\d/.test(message)) return /^must be >/.test(message) ? 'TOO_SMALL' : 'TOO_LARGE';
  if (/^must match format /.test(message)) return 'BAD_FORMAT';
  if (/^must NOT have duplicate items/.test(message)) return 'DUPLICATE';
  if (/^must be (integer|number|string|boolean|array|object|null)(,|$)/.test(message)) return 'WRONG_TYPE';
  return null;
}

/**
 * A userError in words for people, its field named: "Name is required", "Frequency must be one of
 * 1, 2, 5, …", "URL must be a valid URL (https://…)". Worded by its reason (the API's stable code),
 * or by what the message says; a message the console has no words for is kept, after the field's name.
 */
export function userErrorText(error: UserErrorLike): string {
  const message = error.message.trim();
  if (!error.field || error.code === 'TOO_MANY_ERRORS') return message;
  const label = fieldLabel(error.field);
  const n = /(-?\d+(?:\.\d+)?)/.exec(message)?.[1];
  switch (error.reason ?? reasonOf(message)) {
    case 'REQUIRED': return `${label} is required`;
    case 'TOO_SHORT': return n === '1' ? `${label} is required` : `${label} must be at least ${n} characters long`;
    case 'TOO_LONG': return n ? `${label} must be at most ${n} characters long` : `${label} is too long`;
    case 'TOO_FEW_ITEMS': return n === '1' ? `${label} needs at least one entry` : `${label} needs at least ${n} entries`;
    case 'TOO_MANY_ITEMS': return n ? `${label} takes at most ${n} entries` : `${label} has too many entries`;
    case 'TOO_SMALL': return n ? `${label} must be ${/^must be > /.test(message) ? 'more than' : 'at least'} ${n}` : `${label} is too small`;
    case 'TOO_LARGE': return n ? `${label} must be ${/^must be < /.test(message) ? 'less than' : 'at most'} ${n}` : `${label} is too large`;
    case 'DUPLICATE': return `${label} lists the same entry twice`;
    case 'WRONG_TYPE': {
      const type = /^must be ([a-z]+)/.exec(message)?.[1] ?? '';
      return TYPE_WORDS[type] ? `${label} must be ${TYPE_WORDS[type]}` : `${label} has the wrong kind of value`;
    }
    case 'BAD_FORMAT': {
      const format = /format "([^"]+)"/.exec(message)?.[1] ?? '';
      if (FORMAT_WORDS[format]) return `${label} must be ${FORMAT_WORDS[format]}`;
      return message === 'must not be blank' ? `${label} must not be blank` : `${label} is not in the expected form`;
    }
    default:
      // The API's own sentences ("must be one of …", "must be a number for LESS_THAN") read well after the field's name.
      return /^(must|is|has|names|needs|cannot|can|should|does|was|are)\b/.test(message) ? `${label} ${message}` : message;
  }
}

/**
 * Assigns each userError to the form field showing it: the field whose name equals the error's
 * dotted path or is its longest prefix (`request.assertions.0.target` → `request.assertions`). Each
 * message is worded for people (userErrorText).
 */
export function fieldErrors(errors: readonly UserErrorLike[], fields: readonly string[]): FieldErrors {
  const result: FieldErrors = { byField: {}, general: [] };
  for (const error of errors) {
    const path = error.field ?? '';
    const field = fields
      .filter((name) => path === name || path.startsWith(`${name}.`))
      .sort((a, b) => b.length - a.length)[0];
    const text = userErrorText(error);
    if (field) (result.byField[field] ??= []).push(text);
    // Away from its field, a message says which field it is about.
    else result.general.push(path && !text.startsWith(fieldLabel(path)) ? `${fieldLabel(path)}: ${text}` : text);
  }
  return result;
}
