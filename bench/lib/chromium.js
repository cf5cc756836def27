import { chromium } from 'playwright-core';
import { findChromium } from '../../scripts/lib/find-chromium.js';

/** Headless Chromium, found as the tests find it (CHROMIUM_PATH, …), with the project's launch arguments; never downloaded. */
export function launchChromium() {
  const search = findChromium();
  if (search.path === undefined) throw new Error(`the browser benchmarks need Chromium: ${search.problem}`);
  return chromium.launch({
    executablePath: search.path,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
