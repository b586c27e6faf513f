import { parseTags } from '../checks/api-check-form.js';

/** What the check group form holds: text as typed. */
export interface GroupFormValues {
  name: string;
  activated: boolean;
  muted: boolean;
  tags: string;
  locations: string[];
  concurrency: string;
}

/** The group form's fields by the REST paths userErrors name (`locations.0` lands on `locations`). */
export const GROUP_FORM_FIELDS = ['name', 'activated', 'muted', 'tags', 'locations', 'concurrency'] as const;

export const EMPTY_GROUP_FORM: GroupFormValues = { name: '', activated: true, muted: false, tags: '', locations: [], concurrency: '3' };

/** The CheckGroupInput of the form's values; a blank concurrency is left out (the API's default), a non-number sent as null for the API to name. */
export function groupInput(values: GroupFormValues) {
  const concurrency = values.concurrency.trim();
  const n = Number(concurrency);
  return {
    name: values.name.trim(),
    activated: values.activated,
    muted: values.muted,
    tags: parseTags(values.tags),
    locations: values.locations,
    concurrency: concurrency ? (Number.isInteger(n) ? n : null) : undefined,
  };
}

/** A stored group's values as the form shows them. */
export function groupFormValues(group: { name: string; activated: boolean; muted: boolean; tags: readonly string[]; locations: readonly string[]; concurrency: number }): GroupFormValues {
  return { name: group.name, activated: group.activated, muted: group.muted, tags: group.tags.join(', '), locations: [...group.locations], concurrency: String(group.concurrency) };
}
