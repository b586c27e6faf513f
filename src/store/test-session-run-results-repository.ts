import type { Queryable } from './db.js';

/** Results of submitted (`checkly test`) checks, each the REST view of a check result. */
export function createTestSessionRunResultsRepository(db: Queryable) {
  return {
    async insert(accountId: string, testSessionId: string, id: string, result: Record<string, unknown>): Promise<void> {
      await db.query('INSERT INTO test_session_run_results (id, account_id, test_session_id, result) VALUES ($1, $2, $3, $4)', [id, accountId, testSessionId, JSON.stringify(result)]);
    },
    async get(accountId: string, testSessionId: string, id: string): Promise<Record<string, any> | undefined> {
      const [row] = await db.query<{ result: Record<string, any> | string }>(
        'SELECT result FROM test_session_run_results WHERE account_id = $1 AND test_session_id = $2 AND id = $3', [accountId, testSessionId, id],
      );
      if (!row) return undefined;
      return typeof row.result === 'string' ? JSON.parse(row.result) : row.result;
    },
    /** The FINAL results recorded in a session so far (ATTEMPTs left out), oldest first. */
    async finals(testSessionId: string): Promise<Record<string, any>[]> {
      const rows = await db.query<{ result: Record<string, any> | string }>(
        `SELECT result FROM test_session_run_results WHERE test_session_id = $1 AND result->>'resultType' = 'FINAL' ORDER BY created_at, id`, [testSessionId],
      );
      return rows.map((r) => (typeof r.result === 'string' ? JSON.parse(r.result) : r.result));
    },
  };
}
export type TestSessionRunResultsRepository = ReturnType<typeof createTestSessionRunResultsRepository>;
