import Handlebars from 'handlebars';
import { missingValueIssues } from './alert-channel-locked-entries.js';
import type { AlertChannelType } from './catalog.js';
import { isRequestUrl } from './check-rules.js';
import type { Issue } from './lookout-error.js';

/** Why `template` does not compile as a Handlebars template, or undefined when it does. */
export function handlebarsProblem(template: string): string | undefined {
  try {
    Handlebars.precompile(template);
    return undefined;
  } catch (err) {
    // Parse errors read "Parse error on line N:", the source line, an ASCII-art pointer, then what was expected.
    const lines = String((err as Error).message ?? err).split('\n');
    return lines.length > 1 ? `${lines[0]} ${lines[lines.length - 1]}` : lines[0];
  }
}

/**
 * Rules a channel config (already valid against its type's schema, stored values of locked
 * entries put back) must also follow. Keys are prefixed with `config.`, as the client sent them.
 */
export function alertChannelConfigIssues(type: AlertChannelType, config: Record<string, any>): Issue[] {
  const issues: Issue[] = missingValueIssues(type, config);
  if (type === 'WEBHOOK') {
    if (!isRequestUrl(config.url)) issues.push({ key: 'config.url', message: 'must be an http(s) URL' });
    if (typeof config.template === 'string') {
      const problem = handlebarsProblem(config.template);
      if (problem) issues.push({ key: 'config.template', message: `is not a valid Handlebars template: ${problem}` });
    }
  }
  if (type === 'SLACK_APP') {
    const named = (typeof config.channel === 'string' && config.channel !== '') || (Array.isArray(config.slackChannels) && config.slackChannels.length > 0);
    if (!named) issues.push({ key: 'config.slackChannels', message: 'must name at least one Slack channel (or give config.channel)' });
  }
  return issues;
}

/** One entry of a subscriptions update: what it names. */
export interface SubscriptionTarget {
  checkId?: string | null;
  groupId?: number | null;
}

/** Each entry must name exactly one of checkId and groupId; `prefix` is the entry's key path (`0.` or ``). */
export function subscriptionTargetIssues(entries: { target: SubscriptionTarget; prefix: string }[]): Issue[] {
  const issues: Issue[] = [];
  for (const { target, prefix } of entries) {
    const hasCheck = target.checkId != null;
    const hasGroup = target.groupId != null;
    if (hasCheck && hasGroup) {
      issues.push({ key: `${prefix}groupId`, message: 'must not be given together with checkId: a subscription is for a check or for a group' });
    } else if (!hasCheck && !hasGroup) {
      issues.push({ key: `${prefix}checkId`, message: 'is required unless groupId is given' });
      issues.push({ key: `${prefix}groupId`, message: 'is required unless checkId is given' });
    }
  }
  return issues;
}
