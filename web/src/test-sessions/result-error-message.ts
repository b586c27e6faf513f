/** What a result tells of its failure: its errors, the script's, a request error and failed assertions. */
export interface ResultFailureFacts {
  hasFailures: boolean;
  errors: readonly { message: string }[];
  assertions: readonly { passed: boolean; source: string; property?: string | null; comparison: string; target?: string | null; actual?: string | null; error?: string | null }[];
  apiCheckResult?: { requestError?: string | null } | null;
  browserCheckResult?: { errors: readonly { message: string }[] } | null;
  multiStepCheckResult?: { errors: readonly { message: string }[] } | null;
}

/**
 * The one line a list of results shows for a failed run: the first error (the run's, the request's,
 * the script's), else the first failed assertion as "expected … got …"; null for a passing run.
 */
export function resultErrorMessage(result: ResultFailureFacts): string | null {
  const message = result.errors[0]?.message
    ?? result.apiCheckResult?.requestError
    ?? result.browserCheckResult?.errors[0]?.message
    ?? result.multiStepCheckResult?.errors[0]?.message;
  if (message) return message;
  const failed = result.assertions.find((a) => !a.passed);
  if (failed) {
    if (failed.error) return failed.error;
    const subject = failed.property ? `${failed.source} ${failed.property}` : failed.source;
    return `Assertion failed: ${subject} ${failed.comparison} ${failed.target ?? ''} (got ${failed.actual ?? 'nothing'})`.replace(/ {2,}/g, ' ');
  }
  return result.hasFailures ? 'Failed' : null;
}
