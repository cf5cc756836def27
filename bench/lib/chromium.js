import { chromium } from 'playwright-core';
import { findChromium } from '../../scripts/lib/find-chromium.js';
import { CHROMIUM_ARGS } from '../../scripts/lib/shared-chromium.js';

/** Headless Chromium, found as the tests find it (CHROMIUM_PATH, …), with the tests' launch arguments; never downloaded. */
export function launchChromium() {
  const search = findChromium();
  if (search.path === undefined) throw new Error(`the browser benchmarks need Chromium: ${search.problem}`);
  return chromium.launch({ executablePath: search.path, args: CHROMIUM_ARGS });
}
