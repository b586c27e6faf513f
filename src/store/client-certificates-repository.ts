import type { Queryable } from './db.js';

/** A stored client certificate without its secrets (what answers are made of). */
export interface ClientCertificateRow {
  id: string;
  account_id: string;
  host: string;
  cert: string;
  ca: string | null;
  created_at: Date;
  updated_at: Date | null;
  total?: number;
}

/** What a run presents in a TLS handshake: the certificate with its key; never sent to a client. */
export interface ClientCertificateCredentials {
  host: string;
  cert: string;
  key: string;
  passphrase: string | null;
  ca: string | null;
}

// Named columns, never `*`: the secrets column is read only by forRun.
const COLUMNS = 'id, account_id, host, cert, ca, created_at, updated_at';

/** Client certificates, scoped to one account in every statement. */
export function createClientCertificatesRepository(db: Queryable) {
  return {
    async get(accountId: string, id: string): Promise<ClientCertificateRow | undefined> {
      const [row] = await db.query<ClientCertificateRow>(`SELECT ${COLUMNS} FROM client_certificates WHERE account_id = $1 AND id = $2`, [accountId, id]);
      return row;
    },

    /** A page of the account's certificates, oldest first. */
    async list(accountId: string, page: number, limit: number): Promise<{ rows: ClientCertificateRow[]; total: number }> {
      const rows = await db.query<ClientCertificateRow>(
        `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM client_certificates WHERE account_id = $1
         ORDER BY created_at, id LIMIT $2 OFFSET $3`,
        [accountId, limit, (page - 1) * limit],
      );
      if (rows.length > 0) return { rows, total: rows[0]!.total ?? rows.length };
      const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM client_certificates WHERE account_id = $1', [accountId]);
      return { rows, total: count?.n ?? 0 };
    },

    /** Inserts a certificate; undefined when the account already has one for this host. */
    async insert(accountId: string, id: string, c: ClientCertificateCredentials): Promise<ClientCertificateRow | undefined> {
      const [row] = await db.query<ClientCertificateRow>(
        `INSERT INTO client_certificates (id, account_id, host, cert, ca, secrets) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (account_id, host) DO NOTHING RETURNING ${COLUMNS}`,
        [id, accountId, c.host, c.cert, c.ca, { key: c.key, passphrase: c.passphrase }],
      );
      return row;
    },

    async delete(accountId: string, id: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM client_certificates WHERE account_id = $1 AND id = $2 RETURNING id', [accountId, id]);
      return rows.length > 0;
    },

    /** Every certificate of the account with its key and passphrase: only runs read them. */
    /** forRun for several accounts in one statement (a batch of claimed runs). */
    async forRuns(accountIds: readonly string[]): Promise<Map<string, ClientCertificateCredentials[]>> {
      const byAccount = new Map(accountIds.map((id) => [id, [] as ClientCertificateCredentials[]]));
      if (accountIds.length === 0) return byAccount;
      const rows = await db.query<ClientCertificateCredentials & { account_id: string }>(
        `SELECT account_id, host, cert, ca, secrets->>'key' AS key, secrets->>'passphrase' AS passphrase
         FROM client_certificates WHERE account_id = ANY($1::uuid[]) ORDER BY host`,
        [accountIds],
      );
      for (const { account_id, ...credentials } of rows) byAccount.get(account_id)?.push(credentials);
      return byAccount;
    },

    async forRun(accountId: string): Promise<ClientCertificateCredentials[]> {
      return db.query<ClientCertificateCredentials>(
        `SELECT host, cert, ca, secrets->>'key' AS key, secrets->>'passphrase' AS passphrase
         FROM client_certificates WHERE account_id = $1 ORDER BY host`,
        [accountId],
      );
    },
  };
}
export type ClientCertificatesRepository = ReturnType<typeof createClientCertificatesRepository>;
