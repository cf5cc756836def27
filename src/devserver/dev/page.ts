/**
 * The page at `/`: one self-contained document, no framework, no external requests. Everything that
 * came from a client is put on the page with textContent or as a text node, never parsed as HTML, so
 * an event named `<img src=x onerror=alert(1)>` shows as those characters. The script never assigns
 * innerHTML at all, and the CSP (see routes.ts) would stop an injected handler regardless.
 */
import { PAGE_SCRIPT_EVENTS } from './page-script-events';
import { PAGE_SCRIPT_FORMAT } from './page-script-format';
import { PAGE_SCRIPT_INSIGHTS } from './page-script-insights';
import { PAGE_SCRIPT_PANELS } from './page-script-panels';
import { PAGE_SCRIPT_SNIPPETS } from './page-script-snippets';
import { PAGE_STYLE } from './page-style';
import { PAGE_SCRIPT_RECORDINGS } from '../replay/page-script-recordings';

export function renderDevPage(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>hogtail dev</title>
<style nonce="${nonce}">${PAGE_STYLE}</style>
</head>
<body>
<header>
  <h1>hogtail dev</h1>
  <span id="status" class="status" data-state="connecting">connecting…</span>
  <span class="counts"><b id="count-events">0</b> events · <b id="count-people">0</b> people · <b id="count-groups">0</b> groups · <b id="count-rejected">0</b> rejected requests</span>
  <span class="actions">
    <button type="button" id="pause" aria-pressed="false">Pause</button>
    <button type="button" id="clear">Clear…</button>
  </span>
</header>
<main>
  <section class="stream" aria-label="Events">
    <div class="search" role="search">
      <input id="search" type="search" aria-label="Search every stored event" placeholder="Search every event: name, distinct id or any property value" autocomplete="off">
    </div>
    <p id="search-status" class="muted note" aria-live="polite"></p>
    <p id="paused-note" class="note" hidden>Paused: <b id="paused-count">0</b> new events held. <button type="button" id="resume">Show them</button></p>
    <p id="skipped-note" class="note muted" hidden><b id="skipped-count">0</b> events arrived faster than this list shows them: they are all stored, and a search finds them.</p>
    <p id="no-match" class="muted" hidden>No stored event matches.</p>
    <section id="empty" class="empty" aria-labelledby="empty-title">
      <h2 id="empty-title">No events yet</h2>
      <p>Point an SDK at this server and events show here as they arrive. Any project key works; these use <code id="snippet-key"></code>.</p>
      <div class="snippet"><h3>Script tag</h3><button type="button" id="snippet-script-copy">Copy</button><pre id="snippet-script"></pre></div>
      <div class="snippet"><h3>npm (browser, React, SPA)</h3><button type="button" id="snippet-npm-copy">Copy</button><pre id="snippet-npm"></pre></div>
      <div class="snippet"><h3>Node</h3><button type="button" id="snippet-node-copy">Copy</button><pre id="snippet-node"></pre></div>
    </section>
    <ul id="events"></ul>
    <button type="button" id="older" hidden>Load older events</button>
    <p id="zone" class="muted note"></p>
  </section>
  <aside>
    <section aria-labelledby="vitals-title">
      <h2 id="vitals-title">Web vitals <span class="muted">(75th percentile per page)</span></h2>
      <p id="vitals-empty" class="muted">None yet: pages on hogtail or posthog-js send them when they are hidden.</p>
      <div class="scroll"><table id="vitals" hidden><thead><tr><th>page</th><th>LCP</th><th>CLS</th><th>FCP</th><th>INP</th></tr></thead><tbody></tbody></table></div>
    </section>
    <section aria-labelledby="heatmaps-title">
      <h2 id="heatmaps-title">Heatmaps <span class="muted">(clicks per page)</span></h2>
      <p id="heatmaps-empty" class="muted">None yet: clicks on pages with heatmaps on show here.</p>
      <div id="heatmaps"></div>
    </section>
    <section aria-labelledby="recordings-title">
      <h2 id="recordings-title">Session recordings</h2>
      <p id="recordings-empty" class="muted">None yet. Pages using hogtail's script tag (or posthog-js) record here: this server turns session replay on.</p>
      <ul id="recordings"></ul>
    </section>
    <section aria-labelledby="rejections-title">
      <h2 id="rejections-title">Rejected requests</h2>
      <p id="rejections-empty" class="muted">None.</p>
      <ul id="rejection-list"></ul>
      <h3 id="rejections-by-reason">By reason</h3>
      <div class="scroll"><table id="rejections"><thead><tr><th>status</th><th>reason</th><th>count</th></tr></thead><tbody></tbody></table></div>
    </section>
    <section aria-labelledby="flags-title">
      <h2 id="flags-title">Feature flags</h2>
      <p id="flags-file" class="muted"></p>
      <p id="flags-error" class="error" hidden></p>
      <div class="scroll"><table id="flags"><thead><tr><th>flag</th><th>rollout</th></tr></thead><tbody></tbody></table></div>
      <h3>What each user got <span id="users-count" class="muted"></span></h3>
      <div class="scroll"><table id="assignments"><thead></thead><tbody></tbody></table></div>
      <div class="pager"><button type="button" id="users-prev">Previous</button><span id="users-page" class="muted"></span><button type="button" id="users-next">Next</button></div>
    </section>
  </aside>
</main>
<dialog id="clear-dialog" aria-labelledby="clear-title">
  <p id="clear-title"><b>Clear every event and rejected request from this page?</b></p>
  <p class="muted">The stored files under <code id="clear-dir"></code> are kept (a restart shows the page as cleared) unless you tick this:</p>
  <label><input type="checkbox" id="clear-files"> also delete the stored files</label>
  <div class="buttons"><button type="button" id="clear-cancel">Cancel</button><button type="button" id="clear-confirm">Clear</button></div>
</dialog>
<script nonce="${nonce}">
'use strict';
(function () {
${PAGE_SCRIPT_FORMAT}
${PAGE_SCRIPT_EVENTS}
${PAGE_SCRIPT_SNIPPETS}
${PAGE_SCRIPT_INSIGHTS}
${PAGE_SCRIPT_RECORDINGS}
${PAGE_SCRIPT_PANELS}
})();
</script>
</body>
</html>
`;
}
