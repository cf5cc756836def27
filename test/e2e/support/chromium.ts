/**
 * Debian's Chromium driven by playwright-core; no browser is ever downloaded. Every page records
 * uncaught errors, which each test asserts are none (the SDK must never break the host page).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
// Without Chromium the real-browser suites skip locally, but under CI a missing browser must fail
// loudly (launch errors), never pass as skipped.
export const hasChromium = existsSync(CHROMIUM) || process.env.CI === 'true';

/** `extraArgs`: a test's own flags (e.g. host-resolver rules), after the shared ones. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
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
