/**
 * The realistic page session replay is checked on (issue #24, "Done when"): a form with text,
 * e-mail and password fields, a list the user grows and shrinks, a scrolling panel, a client-side
 * route change, and a `.ph-no-capture` block; and the interaction a test drives on it. The typed
 * secrets and the blocked text are constants, so a test can look for them in what was sent.
 */
import type { Page } from 'playwright-core';

export const TYPED = { name: 'Ada Lovelace', email: 'ada.secret@example.com', password: 'hunter2-secret' };
export const BLOCKED_TEXT = 'card number 4242 blocked text';
/** Text under the `maskTextSelector` the tests configure (`.private-note`). */
export const MASKED_TEXT = 'private note for masking';
/** Put on the page last: once it is in a snapshot, everything before it was recorded. */
export const DONE_MARK = 'interaction finished';

/** The page's body; `head` loads the SDK (a script tag, or posthog-js's snippet). */
export function replayPage(head: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>replay</title>
<style>#panel { height: 80px; overflow: auto } #panel div { height: 40px }</style>${head}</head>
<body>
<nav><a id="home" href="/">home</a></nav>
<main id="route">home page</main>
<form id="form" onsubmit="return false">
  <input id="name" type="text" placeholder="name">
  <input id="email" type="email" placeholder="email">
  <input id="password" type="password" placeholder="password">
</form>
<ul id="list"></ul>
<button id="add" onclick="var li=document.createElement('li');li.textContent='item '+document.querySelectorAll('#list li').length;document.getElementById('list').appendChild(li)">add</button>
<button id="remove" onclick="var l=document.getElementById('list');l.lastElementChild&&l.removeChild(l.lastElementChild)">remove</button>
<div id="panel">${Array.from({ length: 20 }, (_, i) => `<div>row ${i}</div>`).join('')}</div>
<div class="ph-no-capture" id="secret">${BLOCKED_TEXT}</div>
<p class="private-note">${MASKED_TEXT}</p>
<p id="status"></p>
</body></html>`;
}

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
