import { randomUUID } from 'node:crypto';
import { hashApiKey, maskApiKey, newApiKey } from '../domain/api-key.js';
import { LookoutError, notFound } from '../domain/lookout-error.js';
import type { Store } from '../store/create-store.js';
import type { PrivateLocationInput, PrivateLocationKeyRow, PrivateLocationRow } from '../store/private-locations-repository.js';
import type { Repositories } from '../store/repositories.js';

/** Private location keys are told apart from account API keys (`lo_`) by their prefix. */
export const PRIVATE_LOCATION_KEY_PREFIX = 'pl_';

/** A key as shown once, at creation: the raw key besides the masked one. */
export interface CreatedPrivateLocationKey {
  id: string;
  rawKey: string;
  maskedKey: string;
  created_at: string;
  updated_at: string | null;
}

/** Timestamps aggregated through JSON come back in PostgreSQL's format; the API speaks toISOString. */
function isoOrNull(value: string | Date | null): string | null {
  return value == null ? null : new Date(value).toISOString();
}

/**
 * A stored private location as the API shows it: `agentCount` counts the agents that reported in
 * the last 15 s, `lastSeen` is when one last did (null: no agent ever connected).
 */
export function toPrivateLocationView(row: PrivateLocationRow, keys: (PrivateLocationKeyRow | CreatedPrivateLocationKey)[] = row.keys) {
  return {
    id: row.id,
    name: row.name,
    slugName: row.slug_name,
    icon: row.icon,
    proxyUrl: row.proxy_url,
    keys: keys.map((k) => ({ ...k, created_at: isoOrNull(k.created_at)!, updated_at: isoOrNull(k.updated_at) })),
    lastSeen: isoOrNull(row.last_seen),
    agentCount: Number(row.agent_count ?? 0),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at ? row.updated_at.toISOString() : null,
  };
}

async function createKey(repos: Repositories, accountId: string, locationId: string): Promise<CreatedPrivateLocationKey | undefined> {
  const rawKey = newApiKey(PRIVATE_LOCATION_KEY_PREFIX);
  const stored = await repos.privateLocations.addKey(accountId, locationId, {
    id: randomUUID(),
    keyHash: hashApiKey(rawKey),
    maskedKey: maskApiKey(rawKey),
  });
  return stored && { id: stored.id, rawKey, maskedKey: stored.maskedKey, created_at: stored.created_at, updated_at: stored.updated_at };
}

function slugTaken(slug: string): LookoutError {
  return new LookoutError('CONFLICT', `A private location with slugName "${slug}" already exists`);
}

/** Refuses to remove or rename a slug that checks or groups still run in (they would silently stop running there). */
async function assertSlugUnused(repos: Repositories, accountId: string, slug: string, action: string): Promise<void> {
  const checks = await repos.checks.usingPrivateLocation(accountId, slug);
  const groups = await repos.groups.usingPrivateLocation(accountId, slug);
  if (checks.length === 0 && groups.length === 0) return;
  const users = [
    ...(checks.length ? [`checks ${checks.map((n) => `"${n}"`).join(', ')}`] : []),
    ...(groups.length ? [`groups ${groups.map((n) => `"${n}"`).join(', ')}`] : []),
  ].join(' and ');
  throw new LookoutError('CONFLICT', `Cannot ${action} private location "${slug}": it is still used by ${users}; remove it from them first`);
}

/** Private locations: CRUD and their keys (stored as hashes; the raw key is shown once). */
export function createPrivateLocationService({ store }: { store: Store }) {
  const read = async (repos: Repositories, accountId: string, id: string) => {
    const row = await repos.privateLocations.get(accountId, id);
    if (!row) throw notFound('Private location', id);
    return row;
  };

  return {
    async list(accountId: string) {
      return (await store.privateLocations.list(accountId)).map((row) => toPrivateLocationView(row));
    },

    get: async (accountId: string, id: string) => toPrivateLocationView(await read(store, accountId, id)),

    /**
     * Creates a location with its first key; the response is the only place that key's raw value
     * appears. `withKey: false` (a deploy, whose answer shows no key) creates it keyless: its agents
     * get a key from `POST /v1/private-locations/{id}/keys`.
     */
    async create(accountId: string, body: { name: string; slugName: string; icon?: string | null; proxyUrl?: string | null }, opts: { withKey?: boolean } = {}) {
      const input: PrivateLocationInput = { name: body.name, slugName: body.slugName, icon: body.icon || null, proxyUrl: body.proxyUrl || null };
      return store.transaction(async (repos) => {
        const id = randomUUID();
        if (!(await repos.privateLocations.insert(accountId, id, input))) throw slugTaken(input.slugName);
        const keys = opts.withKey === false ? [] : [(await createKey(repos, accountId, id))!];
        return toPrivateLocationView(await read(repos, accountId, id), keys);
      });
    },

    /** Fields left out or null keep their stored values; "" removes an icon or proxy URL. */
    async update(accountId: string, id: string, body: { [K in keyof PrivateLocationInput]?: PrivateLocationInput[K] | null }) {
      return store.transaction(async (repos) => {
        const row = await read(repos, accountId, id);
        const input: PrivateLocationInput = {
          name: body.name ?? row.name,
          slugName: body.slugName ?? row.slug_name,
          icon: body.icon == null ? row.icon : body.icon || null,
          proxyUrl: body.proxyUrl == null ? row.proxy_url : body.proxyUrl || null,
        };
        if (input.slugName !== row.slug_name) await assertSlugUnused(repos, accountId, row.slug_name, 'rename');
        const outcome = await repos.privateLocations.update(accountId, id, input);
        if (outcome === 'conflict') throw slugTaken(input.slugName);
        return toPrivateLocationView(await read(repos, accountId, id));
      });
    },

    async delete(accountId: string, id: string): Promise<void> {
      await store.transaction(async (repos) => {
        const row = await read(repos, accountId, id);
        await assertSlugUnused(repos, accountId, row.slug_name, 'delete');
        await repos.privateLocations.delete(accountId, id);
      });
    },

    async createKey(accountId: string, locationId: string): Promise<CreatedPrivateLocationKey> {
      const key = await createKey(store, accountId, locationId);
      if (!key) throw notFound('Private location', locationId);
      return key;
    },

    async deleteKey(accountId: string, locationId: string, keyId: string): Promise<void> {
      await read(store, accountId, locationId);
      if (!(await store.privateLocations.deleteKey(accountId, locationId, keyId))) throw notFound('Private location key', keyId);
    },
  };
}
export type PrivateLocationService = ReturnType<typeof createPrivateLocationService>;
