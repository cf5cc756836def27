/**
 * The Chromium the browser tests drive through playwright-core, found as playwright users expect
 * (CHROMIUM_PATH, PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH, the usual install paths: see
 * scripts/lib/find-chromium.js); no browser is ever downloaded. Every page records uncaught errors,
 * which each test asserts are none (the SDK must never break the host page).
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { findChromium } from '../../../scripts/lib/find-chromium.js';

export const chromiumSearch = findChromium();
// Without Chromium the real-browser suites skip locally (scripts/run-vitest.js says why), but under
// CI a missing browser must fail loudly (launchChromium throws), never pass as skipped.
export const hasChromium = chromiumSearch.path !== undefined || process.env.CI === 'true';

/** `extraArgs`: a test's own flags (e.g. host-resolver rules), after the shared ones. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (chromiumSearch.path === undefined) return Promise.reject(new Error(`The browser tests need Chromium: ${chromiumSearch.problem}.`));
  return chromium.launch({
    executablePath: chromiumSearch.path,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
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
