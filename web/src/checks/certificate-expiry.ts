/** Days left before the certificate expires, below which the console warns. */
export const CERTIFICATE_WARNING_DAYS = 14;

/** How a certificate's remaining validity reads, and how alarming it is. */
export interface CertificateExpiry {
  /** For a list cell: "cert 12 d", "cert expired". */
  short: string;
  /** For a sentence: "expires in 12 days", "expires today", "expired 3 days ago". */
  long: string;
  tone: 'passing' | 'degraded' | 'failing';
}

/** The certificate of a check's last run with TLS, from its days remaining; null when no run saw one. */
export function certificateExpiry(daysRemaining: number | null | undefined): CertificateExpiry | null {
  if (daysRemaining === null || daysRemaining === undefined || !Number.isFinite(daysRemaining)) return null;
  const days = Math.floor(daysRemaining);
  if (days < 0) {
    const ago = -days;
    return { short: 'cert expired', long: `expired ${ago} ${ago === 1 ? 'day' : 'days'} ago`, tone: 'failing' };
  }
  if (days === 0) return { short: 'cert expires today', long: 'expires today', tone: 'failing' };
  return {
    short: `cert ${days} d`,
    long: `expires in ${days} ${days === 1 ? 'day' : 'days'}`,
    tone: days <= CERTIFICATE_WARNING_DAYS ? 'degraded' : 'passing',
  };
}
