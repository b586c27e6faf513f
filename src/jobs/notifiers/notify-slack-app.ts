import { configurationFailure, type Notifier } from './notifier.js';
import { notifySlack } from './notify-slack.js';

/**
 * SLACK_APP: the hosted service posts through its Slack app (OAuth), which a self-hosted Lookout
 * does not have. A channel that also has `config.url` (an incoming webhook) is delivered there as
 * SLACK; any other fails, saying why.
 */
export const notifySlackApp: Notifier = async (channel, alert, ctx) => {
  if (typeof channel.config.url !== 'string' || channel.config.url === '') {
    return configurationFailure('SLACK_APP needs the Slack app integration, not available in self-hosted Lookout; set config.url to an incoming webhook URL');
  }
  return notifySlack(channel, alert, ctx);
};
