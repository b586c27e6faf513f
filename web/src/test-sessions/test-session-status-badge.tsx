const TONES: Record<string, string> = { PASSED: 'passing', FAILED: 'failing', CANCELLED: 'unknown', RUNNING: 'degraded', PENDING: 'unknown' };
const WORDS: Record<string, string> = { PASSED: 'Passed', FAILED: 'Failed', CANCELLED: 'Cancelled', RUNNING: 'Running', PENDING: 'Pending' };

/** The state of a test session or of one of its checks, as a coloured dot and words. */
export function TestSessionStatusBadge({ status }: { status: string }) {
  const tone = TONES[status] ?? 'unknown';
  return <span className={`status status--${tone}`} data-status={status}><span className="status__dot" aria-hidden="true" />{WORDS[status] ?? status}</span>;
}
