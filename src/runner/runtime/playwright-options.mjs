// A check's `playwrightConfig.use` as the options Playwright takes: the browser context's and the
// API request context's (what Playwright Test gives its `page` and `request` fixtures). The keys
// are held to these at the door (src/domain/playwright-config.ts); an unknown one never gets here.

/** `use` keys that are browser context options as they stand. */
const CONTEXT_KEYS = [
  'baseURL', 'viewport', 'locale', 'timezoneId', 'userAgent', 'extraHTTPHeaders', 'ignoreHTTPSErrors', 'colorScheme',
  'geolocation', 'permissions', 'httpCredentials', 'deviceScaleFactor', 'hasTouch', 'isMobile', 'javaScriptEnabled',
  'acceptDownloads', 'offline', 'bypassCSP',
];

/** `use` keys the API request context (`request`) takes too. */
const REQUEST_KEYS = ['baseURL', 'extraHTTPHeaders', 'ignoreHTTPSErrors', 'httpCredentials', 'userAgent'];

function pick(use, keys) {
  return Object.fromEntries(keys.filter((k) => use[k] !== undefined && use[k] !== null).map((k) => [k, use[k]]));
}

/** Options of `browser.newContext()` from `use`. */
export function contextOptionsOf(use) {
  return pick(use ?? {}, CONTEXT_KEYS);
}

/** Options of `request.newContext()` from `use`. */
export function requestOptionsOf(use) {
  return pick(use ?? {}, REQUEST_KEYS);
}
