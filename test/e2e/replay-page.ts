/**
 * The realistic page session replay is checked on (issue #24, "Done when") and the interaction a
 * test drives on it. The page itself is shared with the replay benchmark (bench/lib/replay-page.js);
 * the typed secrets and the blocked text are constants, so a test can look for them in what was sent.
 */
import type { Page } from 'playwright-core';
import { BLOCKED_TEXT, MASKED_TEXT, replayPage } from '../../bench/lib/replay-page.js';

export { BLOCKED_TEXT, MASKED_TEXT, replayPage };
export const TYPED = { name: 'Ada Lovelace', email: 'ada.secret@example.com', password: 'hunter2-secret' };
/** Put on the page last: once it is in a snapshot, everything before it was recorded. */
export const DONE_MARK = 'interaction finished';

/** Typing, clicks that grow and shrink the list, a scroll in the panel, a route change, then the mark. */
export async function interact(page: Page): Promise<void> {
  await page.fill('#name', TYPED.name);
  await page.fill('#email', TYPED.email);
  await page.fill('#password', TYPED.password);
  for (let i = 0; i < 4; i++) await page.click('#add');
  await page.click('#remove');
  await page.evaluate(() => {
    document.getElementById('panel')!.scrollTop = 200;
  });
  await page.evaluate(() => {
    history.pushState({}, '', '/settings');
    document.getElementById('route')!.textContent = 'settings page';
  });
  await page.evaluate((mark) => {
    document.getElementById('status')!.textContent = mark;
  }, DONE_MARK);
}

/** What the page shows that a replay must show too (inputs aside: their values are masked). */
export async function visibleState(page: Page): Promise<{ route: string; list: string[]; status: string }> {
  return page.evaluate(() => ({
    route: document.getElementById('route')!.textContent ?? '',
    list: [...document.querySelectorAll('#list li')].map((li) => li.textContent ?? ''),
    status: document.getElementById('status')!.textContent ?? '',
  }));
}
