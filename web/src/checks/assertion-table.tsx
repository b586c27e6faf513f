/** One assertion of a result as the console's result pages read it. */
export interface AssertionRow {
  source: string;
  property?: string | null;
  comparison: string;
  target?: string | null;
  actual?: string | null;
  passed: boolean;
  error?: string | null;
}

/** A result's assertions with what each expected and saw; nothing when it had none. */
export function AssertionTable({ assertions, className }: { assertions: readonly AssertionRow[]; className?: string }) {
  if (assertions.length === 0) return null;
  return (
    <table className={className} aria-label="Assertions">
      <thead><tr><th scope="col">Assertion</th><th scope="col">Expected</th><th scope="col">Actual</th><th scope="col">Outcome</th></tr></thead>
      <tbody>
        {assertions.map((a, i) => (
          <tr key={i}>
            <td>{a.source}{a.property ? ` ${a.property}` : ''} {a.comparison}</td><td>{a.target}</td><td>{a.actual}</td>
            <td className={a.passed ? 'tone-passing' : 'tone-failing'}>{a.passed ? 'passed' : `failed${a.error ? `: ${a.error}` : ''}`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
