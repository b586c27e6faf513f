/** Links from an alert back into the console. */
export interface AlertLinks {
  /** The check's page: `<public URL>/checks/<id>`. */
  checkUrl: string;
  /** The check's page opened on the result: `…/checks/<id>?result=<result id>`; null without a result. */
  resultUrl: string | null;
}

/**
 * The console links of an alert about `checkId` (and `resultId`), under `publicUrl`
 * (LOOKOUT_PUBLIC_URL). The check page opens the result its `result` query parameter names.
 */
export function alertLinks(publicUrl: string, checkId: string, resultId: string | null): AlertLinks {
  const checkUrl = `${publicUrl.replace(/\/+$/, '')}/checks/${encodeURIComponent(checkId)}`;
  return { checkUrl, resultUrl: resultId ? `${checkUrl}?result=${encodeURIComponent(resultId)}` : null };
}
