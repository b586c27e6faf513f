import { withAlertSettingsDefaults, withRetryDefaults } from './check-defaults.js';

/** A check group as stored and echoed: the accepted body with defaults filled in. */
export type GroupData = Record<string, any> & { name: string };

/** Fills a group's unspecified fields; `retryStrategy: "FALLBACK"` is kept as is. */
export function withGroupDefaults(input: GroupData): GroupData {
  const g: GroupData = { ...input };
  g.activated ??= true;
  g.muted ??= false;
  g.tags ??= [];
  g.locations ??= [];
  g.privateLocations ??= [];
  g.concurrency ??= 3;
  g.apiCheckDefaults = {
    url: '',
    headers: [],
    queryParameters: [],
    assertions: [],
    basicAuth: null,
    ...(g.apiCheckDefaults ?? {}),
  };
  g.browserCheckDefaults ??= null;
  g.runtimeId ??= null;
  g.environmentVariables ??= [];
  g.setupSnippetId ??= null;
  g.tearDownSnippetId ??= null;
  g.localSetupScript ??= null;
  g.localTearDownScript ??= null;
  g.runParallel ??= false;
  g.alertSettings = g.alertSettings === null ? null : withAlertSettingsDefaults(g.alertSettings);
  g.retryStrategy = g.retryStrategy === 'FALLBACK' ? 'FALLBACK' : withRetryDefaults(g.retryStrategy);
  g.useGlobalAlertSettings ??= false;
  g.doubleCheck ??= false;
  delete g.alertChannelSubscriptions;
  return g;
}
