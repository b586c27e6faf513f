import { alertTitle, type AlertMessage } from '../../domain/alert-message.js';
import { sslDaysOf } from '../../domain/result-alert-facts.js';
import { SSL_ALERT_INTERVAL_MS, sslAlertWanted } from '../../domain/ssl-alert-rule.js';
import type { Store } from '../../store/create-store.js';
import { alertChannelsOf, type AlertCheck, type ChannelChoice } from './alert-check.js';
import type { AlertClock } from './alert-clock.js';
import type { AlertDeliveries } from './create-alert-deliveries.js';
import { probeCertificate, type ProbedCertificate } from './probe-certificate.js';
import { alertMessageFor, raiseAlert } from './raise-alert.js';
import type { ReceivedRun } from './received-run.js';

/** Options of createCertificateAlerts. */
export interface CertificateAlertsOptions {
  store: Store;
  clock: AlertClock;
  deliveries: Pick<AlertDeliveries, 'dispatch'>;
  /** Time limit of a certificate probe. */
  timeoutMs: number;
  /** How long the certificate of an sslCheckDomain is trusted before it is read again. */
  cacheMs: number;
}

/**
 * Certificate alerts (ALERT_SSL): each FINAL result with a certificate (the run's own, or the
 * check's sslCheckDomain read at most once per `cacheMs`) under a channel's sslExpiryThreshold
 * raises one, at most once a day per check and channel (marks claimed in the alert's transaction).
 */
export function createCertificateAlerts(options: CertificateAlertsOptions) {
  const { store, clock, deliveries } = options;
  const certificates = new Map<string, { at: number; cert: Promise<ProbedCertificate | null> }>();

  function domainCertificate(domain: string): Promise<ProbedCertificate | null> {
    const key = domain.toLowerCase();
    const cached = certificates.get(key);
    const now = clock.now();
    if (cached && now.getTime() - cached.at < options.cacheMs) return cached.cert;
    const cert = probeCertificate(domain, options.timeoutMs, now);
    certificates.set(key, { at: now.getTime(), cert });
    return cert;
  }

  return {
    /** Raises ALERT_SSL for the channels whose threshold the certificate seen by this run is under. */
    async onRun(check: AlertCheck, run: ReceivedRun): Promise<void> {
      const { profile, accountId, row } = check;
      const seen = profile.sslCheckDomain ? null : sslDaysOf(run.details);
      if (profile.muted || profile.channelIds.length === 0 || (!profile.sslCheckDomain && !seen)) return;
      const channels = (await alertChannelsOf(store, accountId, profile)).filter((c) => c.settings.sslExpiry);
      if (channels.length === 0) return;
      const cert = profile.sslCheckDomain
        ? await domainCertificate(profile.sslCheckDomain)
        : { daysRemaining: seen!.daysRemaining, domain: hostOf(row.data.request?.url) ?? seen!.domain };
      if (!cert) return;
      const days = cert.daysRemaining;
      const wanting = channels.filter((c) => sslAlertWanted(c.settings, days));
      if (wanting.length === 0) return;
      const now = clock.now();
      const queued = await store.transaction(async (repos) => {
        const claimed: ChannelChoice[] = [];
        for (const c of wanting) {
          if (await repos.sslAlertMarks.claim(accountId, row.id, c.id, now, days, SSL_ALERT_INTERVAL_MS)) claimed.push(c);
        }
        if (claimed.length === 0) return [];
        const message: AlertMessage = {
          ...alertMessageFor('ALERT_SSL', check, run),
          title: alertTitle('ALERT_SSL', row.name, { daysRemaining: days, domain: cert.domain }),
          sslDaysRemaining: days,
          sslDomain: cert.domain,
        };
        return (await raiseAlert(repos, check, message, claimed, now)).queued;
      });
      deliveries.dispatch(queued);
    },
    /** Forgets the certificates read so far. */
    close() {
      certificates.clear();
    },
  };
}

/** What createCertificateAlerts returns. */
export type CertificateAlerts = ReturnType<typeof createCertificateAlerts>;

function hostOf(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    return new URL(url).hostname || null;
  } catch {
    return null;
  }
}
