import { randomUUID } from 'node:crypto';
import { toClientCertificateHost } from '../domain/client-certificate-host.js';
import { clientCertificateIssues, type ClientCertificateInput } from '../domain/client-certificate-issues.js';
import { LookoutError, assertValid, notFound } from '../domain/lookout-error.js';
import type { ClientCertificateRow } from '../store/client-certificates-repository.js';
import type { Store } from '../store/create-store.js';

/** A client certificate as the API shows it: never its key or passphrase. */
export function toClientCertificateView(row: ClientCertificateRow) {
  return {
    id: row.id,
    host: row.host,
    cert: row.cert,
    ca: row.ca,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at?.toISOString() ?? null,
  };
}

/**
 * Client certificates: API and URL checks present the account's certificate for their target host
 * in the TLS handshake. Created only when the certificate and key parse and belong together; the
 * key and passphrase are stored for runs and never read back. One certificate per host.
 */
export function createClientCertificateService({ store }: { store: Store }) {
  return {
    async create(accountId: string, body: ClientCertificateInput) {
      assertValid(clientCertificateIssues(body));
      const host = toClientCertificateHost(body.host)!;
      const row = await store.clientCertificates.insert(accountId, randomUUID(), {
        host, cert: body.cert, key: body.key, passphrase: body.passphrase || null, ca: body.ca || null,
      });
      if (!row) throw new LookoutError('CONFLICT', `A client certificate for host ${host} exists already: delete it first`);
      return toClientCertificateView(row);
    },

    async get(accountId: string, id: string) {
      const row = await store.clientCertificates.get(accountId, id);
      if (!row) throw notFound('Client certificate', id);
      return toClientCertificateView(row);
    },

    async list(accountId: string, page: number, limit: number) {
      const { rows, total } = await store.clientCertificates.list(accountId, page, limit);
      return { items: rows.map(toClientCertificateView), total };
    },

    async delete(accountId: string, id: string): Promise<void> {
      if (!(await store.clientCertificates.delete(accountId, id))) throw notFound('Client certificate', id);
    },
  };
}
export type ClientCertificateService = ReturnType<typeof createClientCertificateService>;
