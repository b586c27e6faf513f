import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import tls from 'node:tls';
import { matchClientCertificate } from '../../domain/client-certificate-host.js';
import type { AssertionOutcome, ProbeError, ProbeResult } from '../../domain/check-result.js';
import { evaluateAssertions, type Assertion } from '../../domain/evaluate-assertion.js';
import type { SslObservation } from '../../domain/observation.js';
import { sslFindings, tlsVersionRank, type SslBaseline, type SslFinding, type SslHandshakeFacts } from '../../domain/ssl-findings.js';
import type { Executor, RunContext, RunnableCheck } from '../executor.js';
import { interpolateVariables, variableValues } from '../interpolate-variables.js';
import { finishProbe, guardedExecutor } from './finish-probe.js';
import { CANCELLED_CODE, TIMEOUT_CODE } from './network-error.js';
import { readTlsHandshake, type Handshake } from './read-tls-handshake.js';

const NETWORK_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', TIMEOUT_CODE]);
/** Ciphers for the second handshake that asks for TLS 1.0/1.1 only (OpenSSL refuses them at its default security level). */
const LEGACY_CIPHERS = 'DEFAULT@SECLEVEL=0';

/**
 * The SSL executor (SSL monitors): resolves the host, makes one TLS handshake with Node's `tls`
 * (SNI: serverName, else the host name), and reports the presented chain (subject, issuer, SANs,
 * validity, days until expiry, key, signature algorithm, fingerprints), whether the chain is
 * trusted by Node's trust store (NODE_EXTRA_CA_CERTS adds a private CA), whether the certificate
 * names the host, the negotiated protocol and cipher, and — when the security baseline is on and
 * TLS 1.2 or newer was negotiated — whether the server still accepts TLS 1.0/1.1 (a second
 * handshake). Findings (sslFindings) that fail become errors; those that degrade make the run
 * degraded. A failed handshake is a failed result with its reason. RESPONSE_TIME and the
 * degraded / max limits use the handshake time.
 */
export const runSslCheck: Executor = guardedExecutor(probe, 'SSL_PROBE_FAILED', 'SSL check could not run');

async function probe(check: RunnableCheck, ctx: RunContext, startedAt: Date): Promise<ProbeResult> {
  const request = (check.data.request ?? {}) as Record<string, any>;
  const config = (request.sslConfig ?? {}) as Record<string, any>;
  const vars = variableValues(ctx.variables);
  const hostname = typeof config.hostname === 'string' ? interpolateVariables(config.hostname, vars).trim() : '';
  const port = Number.isInteger(config.port) ? config.port : 443;
  const servername = typeof config.serverName === 'string' && config.serverName !== '' ? interpolateVariables(config.serverName, vars).trim() : hostname;
  const assertions: Assertion[] = Array.isArray(request.assertions) ? request.assertions : [];
  const timeoutMs = Math.min(Number.isInteger(config.handshakeTimeoutMs) ? config.handshakeTimeoutMs : 10_000, ctx.timeoutMs);
  const base = { hostname, port, serverName: servername };
  const fail = (error: ProbeError, networkError: boolean, elapsed = 0) =>
    finishProbe(check, ctx, {
      startedAt, responseTime: Math.round(elapsed), limitedTime: null, errors: [error], assertions: [], networkError,
      details: { ...base, resolvedIp: null, error },
    });

  if (!hostname) return fail({ code: 'INVALID_REQUEST', message: 'SSL check needs request.sslConfig.hostname' }, false);
  if (ctx.signal.aborted) return fail({ code: CANCELLED_CODE, message: `SSL check of ${hostname} was cancelled` }, false);
  let address: string;
  try {
    address = isIP(hostname) ? hostname : (await lookup(hostname, { family: config.ipFamily === 'IPv6' ? 6 : 4 })).address;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'ENOTFOUND';
    return fail({ code, message: `${hostname} could not be resolved: ${(e as Error).message}` }, true);
  }
  const certificate = config.clientCertificateMode === 'auto' ? matchClientCertificate(ctx.clientCertificates ?? [], hostname) ?? null : null;
  const sni = isIP(servername) ? null : servername;
  const shake = await readTlsHandshake({ address, port, servername: sni, timeoutMs, signal: ctx.signal, clientCertificate: certificate });
  if (!shake.ok) {
    return finishProbe(check, ctx, {
      startedAt, responseTime: Math.round(shake.handshakeMs), limitedTime: null, errors: [{ code: shake.error.code, message: `TLS handshake with ${hostname}:${port}: ${shake.error.message}` }],
      assertions: [], networkError: NETWORK_CODES.has(shake.error.code), details: { ...base, resolvedIp: address, handshakeTimeMs: shake.handshakeMs, error: shake.error },
    });
  }

  const baseline = (config.securityBaseline ?? null) as SslBaseline | null;
  const legacy = baseline?.enabled !== false && tlsVersionRank(shake.protocol) >= tlsVersionRank('TLS1.2')
    ? await legacyProtocols(address, port, sni, timeoutMs, ctx.signal)
    : null;
  const hostnameError = shake.peer ? tls.checkServerIdentity(servername, shake.peer) : new Error('the server presented no certificate');
  const facts: SslHandshakeFacts = {
    protocol: shake.protocol,
    cipherSuite: shake.cipherSuite,
    chainTrusted: shake.authorized,
    chainError: shake.authorizationError,
    hostnameVerified: hostnameError === undefined,
    hostnameError: hostnameError ? hostnameError.message : null,
    legacyProtocolsOffered: legacy,
    leaf: shake.chain[0] ?? null,
  };
  const findings = sslFindings(facts, {
    alertDaysBeforeExpiry: Number.isInteger(config.alertDaysBeforeExpiry) ? config.alertDaysBeforeExpiry : 20,
    skipChainValidation: config.skipChainValidation === true,
    securityBaseline: baseline,
  });
  const response = responseOf(base, address, shake, facts, findings);
  const observation: SslObservation = {
    kind: 'SSL',
    responseTime: shake.handshakeMs,
    certificate: facts.leaf ? { ...facts.leaf } : null,
    connection: {
      tlsVersion: facts.protocol, cipherSuite: facts.cipherSuite, hostnameVerified: facts.hostnameVerified, chainTrusted: facts.chainTrusted,
      resolvedIp: address,
    },
    response,
  };
  const errors: ProbeError[] = findings.filter((f) => f.severity === 'fail').map(({ code, message }) => ({ code, message }));
  const result = finishProbe(check, ctx, {
    startedAt,
    responseTime: Math.round(shake.handshakeMs),
    errors,
    assertions: evaluateSslAssertions(assertions, observation),
    networkError: false,
    details: response,
  });
  // A finding that degrades (a weak cipher, older protocols still accepted) degrades a run that otherwise passes.
  if (!result.hasFailures && !result.overMaxResponseTime && findings.some((f) => f.severity === 'degrade')) result.isDegraded = true;
  return result;
}

/** The response as the checkly CLI renders it (`checkRunData.response` of SSL runs) and sslCheckResult shows it. */
function responseOf(
  base: Record<string, unknown>, address: string, shake: Extract<Handshake, { ok: true }>, facts: SslHandshakeFacts, findings: SslFinding[],
): Record<string, unknown> {
  const failing = findings.filter((f) => f.severity === 'fail');
  const degrading = findings.filter((f) => f.severity === 'degrade');
  const leaf = facts.leaf;
  return {
    ...base,
    resolvedIp: address,
    protocol: facts.protocol,
    cipherSuite: facts.cipherSuite,
    handshakeTimeMs: shake.handshakeMs,
    daysUntilExpiry: leaf?.daysUntilExpiry ?? null,
    chainTrusted: facts.chainTrusted,
    chainError: facts.chainError,
    hostnameVerified: facts.hostnameVerified,
    hostnameError: facts.hostnameError,
    legacyProtocolsOffered: facts.legacyProtocolsOffered,
    certificate: leaf,
    chain: shake.chain,
    findings,
    securityBaseline: { verdict: failing.length > 0 ? 'fail' : degrading.length > 0 ? 'degraded' : 'pass', violations: [...failing, ...degrading].map((f) => f.code) },
    // What certificate-expiry alerting reads (sslDaysOf).
    ssl: leaf ? { daysRemaining: leaf.daysUntilExpiry, subject: `CN=${leaf.subjectCN ?? String(base.hostname)}` } : null,
  };
}

/**
 * Assertions over the handshake. `tlsVersion` is ordered (TLS1.0 < … < TLS1.3), so its
 * GREATER_THAN / LESS_THAN compare ranks rather than numbers.
 */
export function evaluateSslAssertions(assertions: readonly Assertion[], o: SslObservation): AssertionOutcome[] {
  return assertions.map((a) => {
    const ordered = a.source === 'CONNECTION' && a.property === 'tlsVersion' && (a.comparison === 'GREATER_THAN' || a.comparison === 'LESS_THAN');
    if (!ordered) return evaluateAssertions([a], o)[0]!;
    const actual = String(o.connection.tlsVersion ?? '');
    const target = String(a.target ?? '');
    const base = { source: a.source, property: a.property ?? null, comparison: a.comparison, target: a.target ?? null, regex: a.regex ?? null, actual };
    if (tlsVersionRank(target) < 0) return { ...base, passed: false, error: `target ${JSON.stringify(target)} is not a TLS version (TLS1.0 … TLS1.3)` };
    const diff = tlsVersionRank(actual) - tlsVersionRank(target);
    const passed = a.comparison === 'GREATER_THAN' ? diff > 0 : diff < 0 && tlsVersionRank(actual) >= 0;
    return passed ? { ...base, passed } : { ...base, passed, error: `expected CONNECTION tlsVersion ${actual} to be ${a.comparison === 'GREATER_THAN' ? 'greater' : 'less'} than ${JSON.stringify(target)}` };
  });
}

/** Which of TLS 1.0 and 1.1 the server still accepts (each tried on its own handshake). */
async function legacyProtocols(address: string, port: number, servername: string | null, timeoutMs: number, signal: AbortSignal): Promise<string[]> {
  const offered: string[] = [];
  for (const [version, name] of [['TLSv1', 'TLS1.0'], ['TLSv1.1', 'TLS1.1']] as const) {
    const h = await readTlsHandshake({ address, port, servername, timeoutMs, signal, versions: { min: version, max: version, ciphers: LEGACY_CIPHERS } });
    if (h.ok) offered.push(name);
  }
  return offered;
}
