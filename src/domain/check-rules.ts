import { isDecimalNumber } from './evaluate-assertion.js';
import { FREQUENCIES, RESPONSE_TIME_LIMITS, SUB_MINUTE_OFFSETS, UNIT_SECONDS, type CheckType, type TimeUnit } from './catalog.js';
import type { CheckData } from './check-defaults.js';
import { grpcRequestIssues } from './grpc-request-rules.js';
import type { Issue } from './lookout-error.js';
import { playwrightConfigIssues } from './playwright-config.js';
import { monitorRuleIssues } from './monitor-rule-issues.js';
import { playwrightSuiteIssues } from './playwright-suite-issues.js';

/** The largest frequencyOffset allowed for a frequency (spec rules 2 and 3); rule 1 is a set. */
export function maxFrequencyOffset(frequency: number): number {
  return frequency <= 60 ? Math.floor(frequency * 10) : Math.ceil(frequency / 60);
}

/** Checks the three frequencyOffset rules; returns a message when broken. */
export function frequencyOffsetProblem(frequency: number, offset: number | null | undefined): string | undefined {
  if (frequency === 0) {
    if (offset == null || !SUB_MINUTE_OFFSETS.includes(offset)) {
      return `must be one of ${SUB_MINUTE_OFFSETS.join(', ')} (seconds) when frequency is 0`;
    }
    return undefined;
  }
  if (offset == null) return undefined;
  const max = maxFrequencyOffset(frequency);
  if (offset < 1 || offset > max) return `must be between 1 and ${max} for frequency ${frequency}`;
  return undefined;
}

const HEARTBEAT_MIN_PERIOD_S = 30;
const HEARTBEAT_MAX_S = 365 * 86400;

/** A URL the runner can request: http(s), or one built from `{{VARIABLES}}` resolved at run time. */
export function isRequestUrl(url: string): boolean {
  if (url.includes('{{')) return true;
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
}

/** Whether `pattern` compiles as a JavaScript regular expression. */
export function isRegex(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/**
 * Rules that span fields or need more than a JSON schema, over a complete (defaulted) check.
 * Keys are the dotted paths a client sent.
 */
export function checkRuleIssues(type: CheckType, c: CheckData): Issue[] {
  const issues: Issue[] = [];
  const allowed = FREQUENCIES[type];
  if (!allowed.includes(c.frequency)) {
    const subMinute = c.frequency === 0 ? ' (sub-minute frequencies apply to API, TCP and DNS checks only)' : '';
    issues.push({ key: 'frequency', message: `must be one of ${allowed.join(', ')}${subMinute}` });
  } else {
    const problem = frequencyOffsetProblem(c.frequency, c.frequencyOffset);
    if (problem) issues.push({ key: 'frequencyOffset', message: problem });
  }

  const limits = RESPONSE_TIME_LIMITS[type];
  if (limits) {
    for (const key of ['degradedResponseTime', 'maxResponseTime'] as const) {
      if (c[key] != null && c[key] > limits.ceiling) issues.push({ key, message: `must be at most ${limits.ceiling}` });
    }
    if (c.degradedResponseTime != null && c.maxResponseTime != null && c.degradedResponseTime > c.maxResponseTime) {
      issues.push({ key: 'degradedResponseTime', message: 'must not exceed maxResponseTime' });
    }
  }

  if (type === 'PLAYWRIGHT') issues.push(...playwrightSuiteIssues(c));

  const seen = new Set<string>();
  (c.environmentVariables ?? []).forEach((v: { key: string }, i: number) => {
    if (seen.has(v.key)) issues.push({ key: `environmentVariables.${i}.key`, message: `duplicates "${v.key}"` });
    seen.add(v.key);
  });

  if (c.request) {
    if ((type === 'API' || type === 'URL') && !isRequestUrl(c.request.url)) {
      issues.push({ key: 'request.url', message: 'must be an http(s) URL' });
    }
    (c.request.assertions ?? []).forEach((a: { comparison?: string; target?: string | null; regex?: string | null; property?: string | null }, i: number) => {
      if (a.regex && !isRegex(a.regex)) issues.push({ key: `request.assertions.${i}.regex`, message: 'is not a valid regular expression' });
      // SSL's tlsVersion is ordered by name (TLS1.2 < TLS1.3): monitorRuleIssues checks its targets.
      if (type === 'SSL' && a.property === 'tlsVersion') return;
      // An ordering against a text that is not a number could only ever end in an evaluation error;
      // a {{VARIABLE}} is a number only once the run fills it in.
      if ((a.comparison === 'GREATER_THAN' || a.comparison === 'LESS_THAN') && !String(a.target ?? '').includes('{{') && !isDecimalNumber(String(a.target ?? ''))) {
        issues.push({ key: `request.assertions.${i}.target`, message: `must be a number for ${a.comparison}` });
      }
    });
    if (type === 'API' && c.request.bodyType === 'JSON' && c.request.body && !c.request.body.includes('{{')) {
      try {
        JSON.parse(c.request.body);
      } catch {
        issues.push({ key: 'request.body', message: 'must be JSON when bodyType is JSON' });
      }
    }
    if (type === 'GRPC') issues.push(...grpcRequestIssues(c.request));
  }

  issues.push(...monitorRuleIssues(type, c));

  if (type === 'HEARTBEAT' && c.heartbeat) {
    const period = c.heartbeat.period * UNIT_SECONDS[c.heartbeat.periodUnit as TimeUnit];
    const grace = c.heartbeat.grace * UNIT_SECONDS[c.heartbeat.graceUnit as TimeUnit];
    if (period < HEARTBEAT_MIN_PERIOD_S || period > HEARTBEAT_MAX_S) {
      issues.push({ key: 'heartbeat.period', message: 'must be between 30 seconds and 365 days' });
    }
    if (grace > HEARTBEAT_MAX_S) issues.push({ key: 'heartbeat.grace', message: 'must be at most 365 days' });
  }

  if (type === 'BROWSER' || type === 'MULTI_STEP') issues.push(...playwrightConfigIssues(c.playwrightConfig));

  return issues;
}
