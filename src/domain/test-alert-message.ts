import type { AlertMessage } from './alert-message.js';

/**
 * The message "Send test" delivers through a channel: clearly marked as a test ([TEST] title,
 * IS_TEST, its own check id so PagerDuty and Opsgenie keep it apart from real incidents), with
 * the facts a real failure alert has, so templates render as they will for real. Its link leads to
 * the console's alert channels under `publicUrl` (LOOKOUT_PUBLIC_URL).
 */
export function testAlertMessage(channelId: number, publicUrl: string, now: Date): AlertMessage {
  return {
    alertType: 'ALERT_FAILURE',
    title: '[TEST] Test alert from Lookout: this channel works',
    checkId: `test-alert-channel-${channelId}`,
    checkName: 'Lookout test alert',
    checkType: 'TEST',
    checkResultId: null,
    errorMessage: 'This is a test message sent with "Send test"; no check failed.',
    groupName: null,
    responseTime: null,
    runLocation: null,
    startedAt: now.toISOString(),
    tags: [],
    statusCode: null,
    isReminder: false,
    reminderSequence: 0,
    sslDaysRemaining: null,
    sslDomain: null,
    failedLocations: null,
    totalLocations: null,
    checkUrl: `${publicUrl.replace(/\/+$/, '')}/alert-channels`,
    resultUrl: null,
    isTest: true,
  };
}
