// The page session replay's benchmark records (bench/browser-replay.js): the same realistic page as
// the replay tests (test/e2e/replay-page.ts): a form, a list, a scrolling panel, a route area, a
// blocked block.
export const REPLAY_PAGE_BODY = `<style>#panel { height: 80px; overflow: auto } #panel div { height: 40px }</style>
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
<div class="ph-no-capture" id="secret">card number 4242 blocked text</div>
<p id="status"></p>`;
