import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** A host name as compared: lower case, ASCII (punycode), no trailing dot, IPv6 without brackets. */
function canonicalHost(text: string): string {
  const host = text.trim().toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[') && host.endsWith(']')) return host.slice(1, -1);
  return host;
}

// URL syntax domainToASCII would quietly cut off (`host/path` becomes `host`).
const NOT_IN_A_NAME = /[\s/\\:?#@[\]%*]/;

function toDnsName(text: string): string | null {
  if (text.length === 0 || text.length > 253 || NOT_IN_A_NAME.test(text)) return null;
  const ascii = domainToASCII(text);
  if (!ascii || ascii.length > 253) return null;
  return ascii.split('.').every((label) => LABEL.test(label)) ? ascii : null;
}

/**
 * The `host` of a client certificate in the form it is stored and matched, or null when it is not
 * one: a host name (`api.example.com`, `localhost`, unicode names become punycode), an IP address
 * (`127.0.0.1`, `::1` or `[::1]`), or a wildcard `*.example.com` standing for every name below
 * example.com (at any depth, not example.com itself). No scheme, port or path: one certificate
 * serves every port and path of its host.
 */
export function toClientCertificateHost(text: string): string | null {
  const host = canonicalHost(text);
  if (isIP(host)) return host;
  if (host.startsWith('*.')) {
    const suffix = toDnsName(host.slice(2));
    return suffix ? `*.${suffix}` : null;
  }
  return toDnsName(host);
}

/**
 * The certificate to present to `hostname` (as a URL names it): the one whose host is exactly that
 * name, else the wildcard with the longest matching suffix, else none. A wildcard never matches an
 * IP address.
 */
export function matchClientCertificate<T extends { host: string }>(certificates: readonly T[], hostname: string): T | undefined {
  const host = canonicalHost(hostname);
  const ascii = isIP(host) ? host : (domainToASCII(host) || host);
  let best: T | undefined;
  let bestLength = -1;
  for (const certificate of certificates) {
    const pattern = certificate.host;
    if (pattern === ascii) return certificate;
    if (!pattern.startsWith('*.') || isIP(ascii)) continue;
    const suffix = pattern.slice(1);
    if (ascii.endsWith(suffix) && ascii.length > suffix.length && suffix.length > bestLength) {
      best = certificate;
      bestLength = suffix.length;
    }
  }
  return best;
}
