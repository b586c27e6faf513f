import type { AlertChannelType } from '../../domain/catalog.js';
import type { Notifier } from './notifier.js';
import { notifyCall } from './notify-call.js';
import { notifyEmail } from './notify-email.js';
import { notifyOpsgenie } from './notify-opsgenie.js';
import { notifyPagerDuty } from './notify-pagerduty.js';
import { notifySlack } from './notify-slack.js';
import { notifySlackApp } from './notify-slack-app.js';
import { notifySms } from './notify-sms.js';
import { notifyWebhook } from './notify-webhook.js';

/** The notifier of each alert channel type. */
export const NOTIFIERS: Record<AlertChannelType, Notifier> = {
  WEBHOOK: notifyWebhook,
  SLACK: notifySlack,
  SLACK_APP: notifySlackApp,
  EMAIL: notifyEmail,
  PAGERDUTY: notifyPagerDuty,
  OPSGENIE: notifyOpsgenie,
  SMS: notifySms,
  CALL: notifyCall,
};
