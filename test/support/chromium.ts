import { constants as fsConstants, accessSync, statSync } from 'node:fs';

/** The Chromium browser tests drive: LOOKOUT_CHROMIUM_PATH, else Debian's package. */
export const CHROMIUM = process.env.LOOKOUT_CHROMIUM_PATH || '/usr/bin/chromium';

/** Whether CHROMIUM is an executable file here (suites needing it skip, and say so, when not). */
export const chromiumInstalled = (() => {
  try {
    accessSync(CHROMIUM, fsConstants.X_OK);
    return statSync(CHROMIUM).isFile();
  } catch {
    return false;
  }
})();

/** Why a browser suite is skipped, and how to make it run. */
export const NO_CHROMIUM = `no Chromium at ${CHROMIUM}: apt-get install -y --no-install-recommends chromium (.ci/run installs it) or set LOOKOUT_CHROMIUM_PATH`;
