// One Chromium for a whole test run. Each browser test file used to launch its own (about thirty
// launches per `npm test`, each a second of a loaded core and a browser's memory); a run started by
// scripts/ launches one as a server and hands its address to every test file
// (HOGTAIL_CHROMIUM_ENDPOINT), whose launchChromium() connects to it. Each file still gets its own
// contexts, closed when it disconnects. A file that needs its own command-line flags, and a file run
// alone with `npx vitest`, launch their own as before.
import { chromium } from 'playwright-core';
import { findChromium } from './find-chromium.js';

/** The flags every test browser runs with (test/e2e/support/chromium.ts adds a file's own). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const ENDPOINT_VARIABLE = 'HOGTAIL_CHROMIUM_ENDPOINT';

/**
 * Starts the shared browser and sets the variable the test processes inherit; resolves with what
 * stops it. Without a Chromium (or when it cannot start) the files launch their own, which says why.
 */
export async function startSharedChromium() {
  const { path } = findChromium();
  if (path === undefined) return async () => {};
  try {
    const server = await chromium.launchServer({ executablePath: path, args: CHROMIUM_ARGS });
    process.env[ENDPOINT_VARIABLE] = server.wsEndpoint();
    return async () => {
      delete process.env[ENDPOINT_VARIABLE];
      await server.close();
    };
  } catch {
    return async () => {};
  }
}
