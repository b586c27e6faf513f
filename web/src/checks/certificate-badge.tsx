import { certificateExpiry } from './certificate-expiry.js';
import './checks-extras.css';

/** A check's certificate expiry as a pill (lists) or words (detail, beside its label); nothing when no run saw a certificate. */
export function CertificateBadge({ daysRemaining, long = false }: { daysRemaining: number | null | undefined; long?: boolean }) {
  const expiry = certificateExpiry(daysRemaining);
  if (!expiry) return null;
  return long
    ? <span className={`cert cert--${expiry.tone}`}>{expiry.long.charAt(0).toUpperCase() + expiry.long.slice(1)}</span>
    : <span className={`pill cert cert--${expiry.tone}`} title={`Certificate ${expiry.long}`} aria-label={`Certificate ${expiry.long}`}>{expiry.short}</span>;
}
