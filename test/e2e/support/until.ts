// Polls the page until a condition holds, for the Chromium tests that wait on what a page shows.
import type { Page } from 'playwright-core';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `read` evaluated in the page every 50 ms until it gives a truthy value (that value), at most 15 s. */
export async function until<T>(page: Page, read: () => T, what: string): Promise<T> {
  for (const deadline = Date.now() + 15_000; ; await sleep(50)) {
    const value = await page.evaluate(read);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}
