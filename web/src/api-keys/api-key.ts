import { isRole, type Role } from '../access/roles.js';

/** An API key as the list shows it (`GET /v1/accounts/me/api-keys`): never the key itself. */
export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string | null;
  maskedKey: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** A service key has a role of its own; a personal key acts as its person, with their role now. */
  kind: 'service' | 'personal';
  /** A service key's role; null for a personal key (and keys of servers without roles). */
  role: Role | null;
  /** A personal key's person. */
  userId: string | null;
  expiresAt: string | null;
}

/** The keys of a list answer; fields a server without roles leaves out read as a service key of no stated role. */
export function readApiKeys(body: unknown): ApiKeyRow[] {
  const list = Array.isArray(body) ? body : [];
  return list.filter((k): k is Record<string, unknown> => Boolean(k) && typeof k === 'object' && typeof (k as { id?: unknown }).id === 'string').map((k) => ({
    id: k.id as string,
    name: String(k.name ?? ''),
    prefix: typeof k.prefix === 'string' ? k.prefix : null,
    maskedKey: String(k.maskedKey ?? ''),
    createdAt: String(k.createdAt ?? ''),
    lastUsedAt: typeof k.lastUsedAt === 'string' ? k.lastUsedAt : null,
    kind: k.kind === 'personal' ? 'personal' : 'service',
    role: isRole(k.role) ? k.role : null,
    userId: typeof k.userId === 'string' ? k.userId : null,
    expiresAt: typeof k.expiresAt === 'string' ? k.expiresAt : null,
  }));
}

/**
 * The body of a new key, saying its kind (and a service key's role) rather than leaning on the
 * server's defaults, which depend on who asks. `expiresOn` is a local date: the key works until the
 * end of that day.
 */
export function newApiKeyBody(input: { name: string; kind: 'service' | 'personal'; role: Role; expiresOn: string }): Record<string, string> {
  const body: Record<string, string> = { name: input.name.trim(), kind: input.kind };
  if (input.kind === 'service') body.role = input.role;
  if (input.expiresOn) {
    const end = new Date(`${input.expiresOn}T00:00:00`);
    end.setDate(end.getDate() + 1);
    body.expiresAt = end.toISOString();
  }
  return body;
}
