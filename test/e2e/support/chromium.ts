/**
 * The Chromium the browser tests drive through playwright-core, found as playwright users expect
 * (CHROMIUM_PATH, PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH, the usual install paths: see
 * scripts/lib/find-chromium.js); no browser is ever downloaded. Every page records uncaught errors,
 * which each test asserts are none (the SDK must never break the host page).
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { findChromium } from '../../../scripts/lib/find-chromium.js';
import { CHROMIUM_ARGS, ENDPOINT_VARIABLE } from '../../../scripts/lib/shared-chromium.js';

export const chromiumSearch = findChromium();
// Without Chromium the real-browser suites skip locally (scripts/run-vitest.js says why), but under
// CI a missing browser must fail loudly (launchChromium throws), never pass as skipped.
export const hasChromium = chromiumSearch.path !== undefined || process.env.CI === 'true';

/**
 * `extraArgs`: a test's own flags (e.g. host-resolver rules), after the shared ones. Under the
 * scripts' runs (`npm test`, `npm run test:e2e`), a file without flags of its own connects to the
 * run's one browser (scripts/lib/shared-chromium.js); closing it then closes only its contexts.
 */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (chromiumSearch.path === undefined) return Promise.reject(new Error(`The browser tests need Chromium: ${chromiumSearch.problem}.`));
  const shared = process.env[ENDPOINT_VARIABLE];
  if (shared !== undefined && extraArgs.length === 0) return chromium.connect(shared);
  return chromium.launch({ executablePath: chromiumSearch.path, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

export interface WatchedPage {
  page: Page;
  /** Uncaught exceptions and unhandled rejections seen by the page. */
  errors: string[];
}

export async function openPage(context: BrowserContext, errors: string[] = []): Promise<WatchedPage> {
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return { page, errors };
}
