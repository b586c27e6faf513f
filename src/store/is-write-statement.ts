/**
 * Whether a statement may write rows: INSERT, UPDATE, DELETE or MERGE, alone or inside a WITH. Reads
 * answer false, so they never pay the transaction a write made with an audit actor runs in
 * (create-pg-db.ts, create-pglite-db.ts). A WITH that only mentions such a word is taken for a write:
 * wrongly wrapping a read costs a round trip, wrongly not wrapping a write would lose its author.
 */
export function isWriteStatement(sql: string): boolean {
  const start = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase();
  if (start === 'INSERT' || start === 'UPDATE' || start === 'DELETE' || start === 'MERGE') return true;
  return start === 'WITH' && /\b(INSERT|UPDATE|DELETE|MERGE)\b/i.test(sql);
}
