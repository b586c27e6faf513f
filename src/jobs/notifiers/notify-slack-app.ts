import { configurationFailure, type Notifier } from './notifier.js';
import { notifySlack } from './notify-slack.js';

/** The channels a SLACK_APP channel posts to: `slackChannels` (the CLI's construct), else `channel`. */
export function slackAppChannels(config: Record<string, any>): string[] {
  if (Array.isArray(config.slackChannels) && config.slackChannels.length > 0) return config.slackChannels.map(String);
  return typeof config.channel === 'string' && config.channel !== '' ? [config.channel] : [];
}

/**
 * SLACK_APP: the hosted service posts through its Slack app (OAuth), which a self-hosted Lookout
 * does not have. A channel that also has `config.url` (an incoming webhook) is delivered there as
 * SLACK, once per channel of `slackChannels` (each message naming its channel, as webhooks of
 * legacy Slack apps honour); any other fails, saying why. One channel failing fails the delivery
 * (retried whole), reporting the first failure.
 */
export const notifySlackApp: Notifier = async (channel, alert, ctx) => {
  if (typeof channel.config.url !== 'string' || channel.config.url === '') {
    return configurationFailure('SLACK_APP needs the Slack app integration, not available in self-hosted Lookout; set config.url to an incoming webhook URL');
  }
  const results = [];
  for (const name of slackAppChannels(channel.config)) {
    results.push(await notifySlack({ ...channel, config: { ...channel.config, channel: name } }, alert, ctx));
  }
  return results.find((r) => !r.ok) ?? results[0] ?? configurationFailure('SLACK_APP names no Slack channel');
};
