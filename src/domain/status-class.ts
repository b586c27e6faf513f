/**
 * The class of an HTTP status (`2xx` … `5xx`), the label request metrics use: per-status labels
 * would multiply series for no question an operator asks. Anything outside 100–599 is `other`.
 */
export function statusClass(status: number): string {
  return Number.isInteger(status) && status >= 100 && status <= 599 ? `${Math.floor(status / 100)}xx` : 'other';
}
