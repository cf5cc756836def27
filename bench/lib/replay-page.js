// The realistic page session replay is checked and measured on (issue #24, "Done when"): a form
// with text, e-mail and password fields, a list the user grows and shrinks, a scrolling panel, a
// client-side route area, a `.ph-no-capture` block and a note a test masks by selector. One page
// for the replay tests (test/e2e/replay-page.ts adds the interaction they drive) and the replay
// benchmark (bench/browser-replay.js), so what is measured is what is tested. Plain JavaScript so
// the benchmark runs it under Node as it is; replay-page.d.ts gives the tests its types.

export const BLOCKED_TEXT = 'card number 4242 blocked text';
/** Text under the `maskTextSelector` the tests configure (`.private-note`). */
export const MASKED_TEXT = 'private note for masking';

/** The whole document; `head` loads the SDK (a script tag, or posthog-js's snippet), or is empty. */
export function replayPage(head) {
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
