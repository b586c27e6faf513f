import type { CheckType } from './catalog.js';
import type { CheckData } from './check-defaults.js';
import type { Issue } from './lookout-error.js';

const NUMBER_ORDER = ['EQUALS', 'NOT_EQUALS', 'GREATER_THAN', 'LESS_THAN'];
const TEXT = ['EQUALS', 'NOT_EQUALS', 'CONTAINS', 'NOT_CONTAINS'];
const WHOLE = ['EQUALS', 'NOT_EQUALS'];
const FLAG = ['EQUALS'];

type Kind = 'number' | 'boolean' | 'string';
/** Property → comparisons and target kind, as the checkly CLI's SslAssertionBuilder grammar states them. */
const SSL_PROPERTIES: Record<string, Record<string, [string[], Kind]>> = {
  CERTIFICATE: {
    daysUntilExpiry: [NUMBER_ORDER, 'number'], keySizeBits: [NUMBER_ORDER, 'number'], subjectCN: [TEXT, 'string'], issuerCN: [TEXT, 'string'],
    serialNumber: [WHOLE, 'string'], fingerprintSha256: [WHOLE, 'string'], issuerFingerprintSha256: [WHOLE, 'string'], keyAlgorithm: [WHOLE, 'string'],
    signatureAlgorithm: [WHOLE, 'string'], sans: [['CONTAINS', 'NOT_CONTAINS'], 'string'], selfSigned: [FLAG, 'boolean'], isCA: [FLAG, 'boolean'],
  },
  CONNECTION: {
    tlsVersion: [NUMBER_ORDER, 'string'], cipherSuite: [TEXT, 'string'], hostnameVerified: [FLAG, 'boolean'], chainTrusted: [FLAG, 'boolean'],
    resolvedIp: [TEXT, 'string'],
  },
};
/** Properties of the CLI's grammar that Lookout's handshake does not observe: refused rather than never matching. */
const UNOBSERVED: Record<string, string> = { ocspStapled: 'OCSP stapling', ocspStatus: 'OCSP revocation status' };
const SSL_SOURCES: Record<string, string[]> = {
  RESPONSE_TIME: NUMBER_ORDER,
  JSON_RESPONSE: ['EQUALS', 'NOT_EQUALS', 'IS_EMPTY', 'NOT_EMPTY', 'GREATER_THAN', 'LESS_THAN', 'CONTAINS', 'NOT_CONTAINS', 'IS_NULL', 'NOT_NULL'],
  TEXT_RESPONSE: ['EQUALS', 'NOT_EQUALS', 'IS_EMPTY', 'NOT_EMPTY', 'CONTAINS', 'NOT_CONTAINS', 'GREATER_THAN', 'LESS_THAN'],
};
const TRACEROUTE_LATENCY = ['avg', 'min', 'max', 'stdDev'];
const TRACEROUTE_SCALAR = ['EQUALS', 'GREATER_THAN', 'LESS_THAN'];
/** Baseline rules Lookout cannot check (no CA blocklist, OCSP or certificate transparency): only `ignore` is honest. */
const UNCHECKED_BASELINE_RULES = ['knownBadCA', 'ocspMustStapleRespected', 'sctPresent'];

interface AssertionInput {
  source: string;
  property?: string | null;
  comparison: string;
  target?: string | number | null;
}

/**
 * Rules of SSL and TRACEROUTE monitors beyond their JSON schema, over a complete (defaulted)
 * check: assertions hold to the CLI's grammar (the property exists, the comparison applies to it,
 * a boolean or numeric property gets such a target), and settings Lookout cannot honour are
 * refused (an explicit client certificate by id, OCSP and certificate-transparency rules).
 */
export function monitorRuleIssues(type: CheckType, c: CheckData): Issue[] {
  if (type !== 'SSL' && type !== 'TRACEROUTE') return [];
  const issues: Issue[] = [];
  const assertions: AssertionInput[] = Array.isArray(c.request?.assertions) ? c.request.assertions : [];
  assertions.forEach((a, i) => {
    const problem = type === 'SSL' ? sslAssertionProblem(a) : tracerouteAssertionProblem(a);
    if (problem) issues.push({ key: `request.assertions.${i}.${problem.key}`, message: problem.message });
  });
  if (type === 'SSL') {
    const config = c.request?.sslConfig ?? {};
    if (config.clientCertificateMode === 'explicit' || (c.request?.sslClientCertificateId ?? null) !== null) {
      issues.push({
        key: config.clientCertificateMode === 'explicit' ? 'request.sslConfig.clientCertificateMode' : 'request.sslClientCertificateId',
        message: 'an explicit client certificate is not supported: use clientCertificateMode "auto" (the account\'s client certificate for the host is presented)',
      });
    }
    for (const rule of UNCHECKED_BASELINE_RULES) {
      const severity = config.securityBaseline?.[rule]?.severity;
      if (severity && severity !== 'ignore') {
        issues.push({ key: `request.sslConfig.securityBaseline.${rule}.severity`, message: `must be "ignore": Lookout does not check ${rule}` });
      }
    }
  }
  return issues;
}

function sslAssertionProblem(a: AssertionInput): { key: string; message: string } | null {
  const properties = SSL_PROPERTIES[a.source];
  if (!properties) {
    const comparisons = SSL_SOURCES[a.source];
    if (comparisons && !comparisons.includes(a.comparison)) return { key: 'comparison', message: `must be one of ${comparisons.join(', ')} for ${a.source}` };
    if (a.source === 'RESPONSE_TIME' && !isNumber(a.target)) return { key: 'target', message: 'must be a number' };
    return null;
  }
  const property = a.property ?? '';
  if (UNOBSERVED[property]) return { key: 'property', message: `${property} is not supported: Lookout does not observe ${UNOBSERVED[property]}` };
  const rule = properties[property];
  if (!rule) return { key: 'property', message: `must be one of ${Object.keys(properties).join(', ')} for ${a.source}` };
  const [comparisons, kind] = rule;
  if (!comparisons.includes(a.comparison)) return { key: 'comparison', message: `must be one of ${comparisons.join(', ')} for ${a.source} ${property}` };
  if (kind === 'boolean' && a.target !== 'true' && a.target !== 'false') return { key: 'target', message: 'must be "true" or "false"' };
  if (kind === 'number' && !isNumber(a.target)) return { key: 'target', message: 'must be a number' };
  if (property === 'tlsVersion' && !['TLS1.0', 'TLS1.1', 'TLS1.2', 'TLS1.3'].includes(String(a.target))) {
    return { key: 'target', message: 'must be one of TLS1.0, TLS1.1, TLS1.2, TLS1.3' };
  }
  return null;
}

function tracerouteAssertionProblem(a: AssertionInput): { key: string; message: string } | null {
  if (a.source === 'RESPONSE_TIME') {
    if (!TRACEROUTE_LATENCY.includes(a.property || 'avg')) return { key: 'property', message: `must be one of ${TRACEROUTE_LATENCY.join(', ')}` };
    if (!NUMBER_ORDER.includes(a.comparison)) return { key: 'comparison', message: `must be one of ${NUMBER_ORDER.join(', ')}` };
  } else {
    if (a.property) return { key: 'property', message: `must be empty for ${a.source}` };
    if (!TRACEROUTE_SCALAR.includes(a.comparison)) return { key: 'comparison', message: `must be one of ${TRACEROUTE_SCALAR.join(', ')} for ${a.source}` };
  }
  if (!isNumber(a.target)) return { key: 'target', message: 'must be a number' };
  return null;
}

function isNumber(target: unknown): boolean {
  return (typeof target === 'number' && Number.isFinite(target)) || (typeof target === 'string' && target.trim() !== '' && Number.isFinite(Number(target)));
}
