import { codedError } from './errors.js';
import { integerRestId } from './global-id.js';
import type { UserError } from './user-errors.js';

/**
 * An input field naming another resource by its global id or its REST id (`field`, an `ID`), next to
 * the deprecated field it replaces (`restField`, an `Int`: the REST id, named as REST names it), and
 * the type of its global id.
 */
interface Reference {
  field: string;
  restField: string;
  type: string;
}

/** Top-level reference fields of check and group inputs. */
const INPUT_REFERENCES: readonly Reference[] = [
  { field: 'group', restField: 'groupId', type: 'CheckGroup' },
  { field: 'setupSnippet', restField: 'setupSnippetId', type: 'Snippet' },
  { field: 'tearDownSnippet', restField: 'tearDownSnippetId', type: 'Snippet' },
];

const CHANNEL: Reference = { field: 'alertChannel', restField: 'alertChannelId', type: 'AlertChannel' };

/** The group reference of CheckFilter and CheckResultFilter. */
const FILTER_GROUP: Reference = { field: 'group', restField: 'groupId', type: 'CheckGroup' };

type Resolved = { restId: number | null | undefined } | { problem: string };

/**
 * The REST id two fields of one reference name together. The deprecated `Int` field is a REST id as
 * it is (an Int can never be a global id: sent on as before, REST judges it). The `ID` field is a
 * global id or a REST id; null means none (remove), absent means unchanged. Giving both is fine when
 * they name the same resource; anything else is a problem with the `ID` field.
 */
function resolveReference(values: Record<string, unknown>, { field, restField, type }: Reference): Resolved {
  const legacy = values[restField] as number | null | undefined;
  const id = values[field] as string | null | undefined;
  if (id === undefined) return { restId: legacy };
  let restId: number | null = null;
  if (id !== null) {
    restId = integerRestId(id, type);
    if (restId === null) return { problem: `"${field}" must be a global id of a ${type} or its REST id, not ${JSON.stringify(id.slice(0, 100))}` };
  }
  if (legacy !== undefined && legacy !== restId) {
    return { problem: `"${field}" and the deprecated "${restField}" name different ${type}s (${id === null ? 'null' : JSON.stringify(id.slice(0, 100))} and ${String(legacy)}): give one of them` };
  }
  return { restId };
}

/** `values` with `reference` as REST sends it: the REST field set (when given), the `ID` field gone. */
function withRestField(values: Record<string, unknown>, { field, restField }: Reference, restId: number | null | undefined): Record<string, unknown> {
  const { [field]: _id, [restField]: _legacy, ...rest } = values;
  return restId === undefined ? rest : { ...rest, [restField]: restId };
}

/**
 * The REST body of a check or group input. `group`, `setupSnippet`, `tearDownSnippet` and
 * `alertChannelSubscriptions[].alertChannel` take global ids or REST ids alike and are sent as the
 * REST integers `groupId`, `setupSnippetId`, `tearDownSnippetId` and `alertChannelId`; null (remove)
 * and absent (unchanged) stay as they are. The deprecated `Int` fields they replace are sent as they
 * are. An id that can be neither, or one naming another resource than its deprecated field sent with
 * it, is a userError on the `ID` field, found before any REST call; so is a channel subscription
 * naming no channel.
 */
export function withRestReferences<T extends object>(input: T): { body: Record<string, unknown>; userErrors: UserError[] } {
  let body: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  const userErrors: UserError[] = [];
  const problem = (field: string, message: string) => userErrors.push({ field, code: 'BAD_USER_INPUT', message });
  for (const reference of INPUT_REFERENCES) {
    const resolved = resolveReference(body, reference);
    if ('problem' in resolved) problem(reference.field, resolved.problem);
    else body = withRestField(body, reference, resolved.restId);
  }
  const subscriptions = body.alertChannelSubscriptions;
  if (Array.isArray(subscriptions)) {
    body.alertChannelSubscriptions = subscriptions.map((s: Record<string, unknown>, i) => {
      const field = `alertChannelSubscriptions.${i}.${CHANNEL.field}`;
      const resolved = resolveReference(s, CHANNEL);
      if ('problem' in resolved) problem(field, resolved.problem);
      else if (resolved.restId == null) problem(field, `"${CHANNEL.field}" (or the deprecated "${CHANNEL.restField}") is required`);
      else return withRestField(s, CHANNEL, resolved.restId);
      return s;
    });
  }
  return { body, userErrors };
}

/**
 * The REST group id of a CheckFilter or CheckResultFilter: `group` (a global id or a REST id) or the
 * deprecated `groupId` (a REST id, as it is); undefined when neither is given. An id that can be
 * neither, or a `group` naming another group than `groupId`, is BAD_USER_INPUT naming `group`.
 */
export function filterGroupRestId(filter: { group?: string | null; groupId?: number | null } | null | undefined): number | undefined {
  if (!filter) return undefined;
  const values = { group: filter.group ?? undefined, groupId: filter.groupId ?? undefined };
  const resolved = resolveReference(values, FILTER_GROUP);
  if ('problem' in resolved) throw codedError('BAD_USER_INPUT', resolved.problem, { argumentName: FILTER_GROUP.field });
  return resolved.restId ?? undefined;
}
