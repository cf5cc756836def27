/**
 * The page at `/`: one self-contained document, no framework, no external requests. Everything that
 * came from a client is put on the page with textContent or as a text node, never parsed as HTML, so
 * an event named `<img src=x onerror=alert(1)>` shows as those characters. The script never assigns
 * innerHTML at all, and the CSP (see routes.ts) would stop an injected handler regardless.
 */
export function renderDevPage(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>hogtail dev</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<header>
  <h1>hogtail dev</h1>
  <span id="status" class="status" data-state="connecting">connecting…</span>
  <span class="counts"><b id="count-events">0</b> events · <b id="count-people">0</b> people · <b id="count-rejected">0</b> rejected requests</span>
</header>
<main>
  <section class="stream">
    <div class="filters">
      <input id="filter-event" type="search" placeholder="filter by event name" autocomplete="off">
      <input id="filter-distinct-id" type="search" placeholder="filter by distinct id" autocomplete="off">
      <span id="shown" class="muted"></span>
    </div>
    <p id="empty" class="muted">Waiting for events. Point an SDK at this server's address as its host.</p>
    <ul id="events"></ul>
  </section>
  <aside>
    <section>
      <h2>Rejected requests</h2>
      <p id="rejections-empty" class="muted">None.</p>
      <table id="rejections"><thead><tr><th>status</th><th>reason</th><th>count</th></tr></thead><tbody></tbody></table>
    </section>
    <section>
      <h2>Feature flags</h2>
      <p id="flags-file" class="muted"></p>
      <p id="flags-error" class="error" hidden></p>
      <table id="flags"><thead><tr><th>flag</th><th>rollout</th></tr></thead><tbody></tbody></table>
      <h3>What each user got</h3>
      <table id="assignments"><thead></thead><tbody></tbody></table>
    </section>
  </aside>
</main>
<script nonce="${nonce}">${SCRIPT}</script>
</body>
</html>
`;
}

const STYLE = `
:root { font: 14px/1.4 system-ui, sans-serif; color: #1d1f24; background: #f6f6f3; }
body { margin: 0; }
header { display: flex; gap: 1rem; align-items: baseline; padding: .6rem 1rem; background: #1d1f24; color: #f6f6f3; }
h1 { font-size: 1.1rem; margin: 0; }
h2 { font-size: 1rem; margin: .2rem 0 .4rem; }
h3 { font-size: .9rem; margin: .8rem 0 .3rem; }
.status[data-state="live"] { color: #7bd88f; }
.status[data-state="disconnected"] { color: #ff7a7a; }
.counts { margin-left: auto; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(18rem, 2fr); gap: 1rem; padding: 1rem; }
.filters { display: flex; gap: .5rem; margin-bottom: .5rem; align-items: center; }
.filters input { flex: 1; padding: .35rem .5rem; border: 1px solid #c8c8c0; border-radius: 4px; }
ul#events { list-style: none; margin: 0; padding: 0; }
li.event { background: #fff; border: 1px solid #e2e2dc; border-radius: 4px; margin-bottom: 4px; }
li.event .row { display: grid; grid-template-columns: 6.5rem minmax(0, 2fr) minmax(0, 2fr) 5rem; gap: .5rem; padding: .35rem .5rem; cursor: pointer; }
li.event .row span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
li.event .name { font-weight: 600; }
li.event pre { margin: 0; padding: .5rem; border-top: 1px solid #e2e2dc; background: #fbfbf8; overflow: auto; max-height: 30rem; font-size: 12px; white-space: pre-wrap; word-break: break-all; }
.muted { color: #6b6e76; }
.error { color: #b00020; }
aside section { background: #fff; border: 1px solid #e2e2dc; border-radius: 4px; padding: .6rem; margin-bottom: 1rem; overflow: auto; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th { white-space: nowrap; }
th, td { text-align: left; padding: .2rem .4rem; border-bottom: 1px solid #eee; vertical-align: top; word-break: break-word; }
td.off { color: #9a9a9a; }
td.on { color: #0a7d32; font-weight: 600; }
`;

// Plain ES2017 so it runs in any browser a developer has open; no template literals with data.
const SCRIPT = `
'use strict';
(function () {
  var MAX_EVENTS = 5000;
  var events = [];
  var expanded = {};
  var $ = function (id) { return document.getElementById(id); };
  var list = $('events');
  var filterEvent = $('filter-event');
  var filterDistinct = $('filter-distinct-id');

  // The one way anything reaches the page: text nodes and textContent, never markup.
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function matches(event) {
    var name = filterEvent.value.trim().toLowerCase();
    var id = filterDistinct.value.trim().toLowerCase();
    if (name && String(event.event).toLowerCase().indexOf(name) === -1) return false;
    if (id && String(event.distinct_id).toLowerCase().indexOf(id) === -1) return false;
    return true;
  }

  function details(event) {
    var shown = {};
    var keys = ['event', 'distinct_id', 'uuid', 'timestamp', 'properties', '$set', '$set_once', 'sent_at', 'receivedAt', 'endpoint', 'historical_migration'];
    for (var i = 0; i < keys.length; i++) if (event[keys[i]] !== undefined) shown[keys[i]] = event[keys[i]];
    return JSON.stringify(shown, null, 2);
  }

  function renderEvent(event) {
    var item = el('li', 'event');
    item.dataset.seq = String(event.seq);
    var row = el('div', 'row');
    var time = event.timestamp || event.receivedAt || '';
    row.appendChild(el('span', 'time muted', String(time).slice(11, 19)));
    row.appendChild(el('span', 'name', event.event));
    row.appendChild(el('span', 'distinct', event.distinct_id));
    row.appendChild(el('span', 'endpoint muted', event.endpoint));
    row.title = 'click to show properties';
    item.appendChild(row);
    if (expanded[event.seq]) item.appendChild(el('pre', 'props', details(event)));
    row.addEventListener('click', function () {
      var open = item.querySelector('pre');
      if (open) { item.removeChild(open); delete expanded[event.seq]; }
      else { item.appendChild(el('pre', 'props', details(event))); expanded[event.seq] = true; }
    });
    return item;
  }

  function updateShown() {
    var shown = list.children.length;
    $('shown').textContent = shown === events.length ? '' : shown + ' of ' + events.length + ' shown';
    $('empty').hidden = events.length > 0;
  }

  function renderAll() {
    clear(list);
    var fragment = document.createDocumentFragment();
    for (var i = events.length - 1; i >= 0; i--) if (matches(events[i])) fragment.appendChild(renderEvent(events[i]));
    list.appendChild(fragment);
    updateShown();
  }

  function addEvents(batch) {
    var fragment = document.createDocumentFragment();
    for (var i = 0; i < batch.length; i++) events.push(batch[i]);
    for (var j = batch.length - 1; j >= 0; j--) if (matches(batch[j])) fragment.appendChild(renderEvent(batch[j]));
    list.insertBefore(fragment, list.firstChild);
    if (events.length > MAX_EVENTS) {
      events.splice(0, events.length - MAX_EVENTS);
      while (list.children.length > MAX_EVENTS) list.removeChild(list.lastChild);
    }
    updateShown();
  }

  function flagCell(value) {
    var cell = el('td', value === false ? 'off' : 'on', value === undefined ? '–' : String(value));
    return cell;
  }

  function renderSummary(summary) {
    $('count-events').textContent = String(summary.events.total);
    $('count-people').textContent = String(summary.people);
    $('count-rejected').textContent = String(summary.rejections.total);

    var rejections = $('rejections').tBodies[0];
    clear(rejections);
    summary.rejections.byReason.forEach(function (entry) {
      var row = el('tr');
      row.appendChild(el('td', '', entry.status));
      row.appendChild(el('td', '', entry.reason));
      row.appendChild(el('td', '', entry.count));
      rejections.appendChild(row);
    });
    $('rejections-empty').hidden = summary.rejections.byReason.length > 0;

    var flags = summary.flags;
    $('flags-file').textContent = flags.file ? 'from ' + flags.file + ' (read ' + flags.loadedAt + ')' : 'No flags file: start with --flags flags.json';
    $('flags-error').hidden = !flags.error;
    $('flags-error').textContent = flags.error ? 'The file changed but cannot be used: ' + flags.error : '';
    var definitions = $('flags').tBodies[0];
    clear(definitions);
    flags.definitions.forEach(function (flag) {
      var row = el('tr');
      row.appendChild(el('td', flag.active ? '' : 'off', flag.key + (flag.active ? '' : ' (inactive)') + (flag.groupType ? ' [per ' + flag.groupType + ']' : '')));
      var parts = flag.conditions.map(function (condition) {
        var text = condition.rolloutPercentage === null ? '100%' : condition.rolloutPercentage + '%';
        if (condition.properties) text += ' of ' + condition.properties + ' condition' + (condition.properties > 1 ? 's' : '');
        if (condition.variant) text += ' → ' + condition.variant;
        return text;
      });
      if (flag.variants.length) parts.push('variants ' + flag.variants.map(function (v) { return v.key + ' ' + v.rolloutPercentage + '%'; }).join(', '));
      row.appendChild(el('td', '', parts.join('; ')));
      definitions.appendChild(row);
    });

    var table = $('assignments');
    clear(table.tHead);
    clear(table.tBodies[0]);
    var keys = flags.definitions.map(function (flag) { return flag.key; });
    if (!keys.length || !flags.users.length) return;
    var head = el('tr');
    head.appendChild(el('th', '', 'distinct id'));
    keys.forEach(function (key) { head.appendChild(el('th', '', key)); });
    table.tHead.appendChild(head);
    flags.users.forEach(function (user) {
      var row = el('tr');
      var who = el('td', '', user.distinctId);
      who.title = user.source === 'decide' ? 'as decide answered at ' + user.at : 'evaluated now (no decide request seen)';
      row.appendChild(who);
      keys.forEach(function (key) { row.appendChild(flagCell(user.flags[key])); });
      table.tBodies[0].appendChild(row);
    });
  }

  var summaryTimer = null;
  var summaryBusy = false;
  function refreshSummary() {
    if (summaryTimer !== null) return;
    summaryTimer = setTimeout(function () {
      summaryTimer = null;
      if (summaryBusy) { refreshSummary(); return; }
      summaryBusy = true;
      fetch('/_dev/summary', { cache: 'no-store' })
        .then(function (response) { return response.json(); })
        .then(renderSummary)
        .catch(function () {})
        .then(function () { summaryBusy = false; });
    }, 250);
  }

  filterEvent.addEventListener('input', renderAll);
  filterDistinct.addEventListener('input', renderAll);

  var status = $('status');
  var source = new EventSource('/_dev/stream');
  source.addEventListener('open', function () { status.dataset.state = 'live'; status.textContent = 'live'; });
  source.addEventListener('error', function () { status.dataset.state = 'disconnected'; status.textContent = 'reconnecting…'; });
  source.addEventListener('events', function (message) { addEvents(JSON.parse(message.data)); refreshSummary(); });
  source.addEventListener('ready', function () { updateShown(); refreshSummary(); });
  source.addEventListener('changed', refreshSummary);
  refreshSummary();
})();
`;
