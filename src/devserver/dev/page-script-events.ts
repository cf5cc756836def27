/**
 * The live page's event list: the stream, the server-side search with paging, pause, and each event
 * opening (by mouse or keyboard) into a table of its properties with the raw JSON a click away.
 * Plain ES2017 so it runs in any browser a developer has open; no template literals with data, and
 * data reaches the DOM only through textContent (see `el`).
 */
export const PAGE_SCRIPT_EVENTS = `
  var MAX_EVENTS = 5000;
  var PAGE = 100;
  var live = [];
  var held = [];
  var paused = false;
  var term = '';
  var older = null;
  var open = {};
  var list = $('events');
  var skippedTotal = 0;

  var zoneName = (Intl.DateTimeFormat().resolvedOptions().timeZone) || 'this machine';
  $('zone').textContent = 'Times are local to ' + zoneName + ' (' + zoneOf(new Date()) + '); the event\\'s own timestamp, or when it arrived if it had none.';

  // The server's rule, so a live event shows under a search exactly when a new search would find it.
  function matches(event) {
    if (!term) return true;
    if (String(event.event).toLowerCase().indexOf(term) !== -1) return true;
    if (String(event.distinct_id).toLowerCase().indexOf(term) !== -1) return true;
    var stack = [event.properties];
    for (var visited = 0; stack.length && visited < 10000; visited++) {
      var value = stack.pop();
      if (typeof value === 'string') { if (value.toLowerCase().indexOf(term) !== -1) return true; }
      else if (typeof value === 'number' || typeof value === 'boolean') { if (String(value).indexOf(term) !== -1) return true; }
      else if (value && typeof value === 'object') { for (var key in value) if (Object.prototype.hasOwnProperty.call(value, key)) stack.push(value[key]); }
    }
    return false;
  }

  function shortValue(value) {
    if (typeof value === 'string') return value;
    try { return JSON.stringify(value); } catch (error) { return String(value); }
  }
  function fieldTable(rows) {
    var table = el('table', 'fields');
    var body = el('tbody');
    rows.forEach(function (pair) {
      var row = el('tr');
      row.appendChild(el('td', 'key', pair[0]));
      row.appendChild(el('td', '', shortValue(pair[1])));
      body.appendChild(row);
    });
    table.appendChild(body);
    var wrap = el('div', 'scroll');
    wrap.appendChild(table);
    return wrap;
  }
  function rawJson(event) {
    var shown = {};
    var keys = ['event', 'distinct_id', 'uuid', 'timestamp', 'properties', '$set', '$set_once', 'sent_at', 'receivedAt', 'endpoint', 'historical_migration', 'warnings'];
    for (var i = 0; i < keys.length; i++) if (event[keys[i]] !== undefined) shown[keys[i]] = event[keys[i]];
    return JSON.stringify(shown, null, 2);
  }

  function renderDetails(event) {
    var box = el('div', 'details');
    (event.warnings || []).forEach(function (warning) { box.appendChild(el('p', 'warning', '⚠ ' + warning)); });
    box.appendChild(fieldTable([
      ['event', event.event], ['distinct id', event.distinct_id], ['uuid', event.uuid || '(none)'],
      ['timestamp', event.timestamp ? localTime(event.timestamp) + ' (' + event.timestamp + ')' : '(none)'],
      ['received', localTime(event.receivedAt)], ['path', event.endpoint], ['seq', event.seq],
    ]));
    var sections = [['Properties', event.properties], ['$set', event.$set], ['$set_once', event.$set_once]];
    sections.forEach(function (section) {
      if (!section[1]) return;
      var keys = Object.keys(section[1]).sort();
      box.appendChild(el('h4', '', section[0] + ' (' + keys.length + ')'));
      box.appendChild(fieldTable(keys.map(function (key) { return [key, section[1][key]]; })));
    });
    var toggle = el('button', 'raw-toggle', 'Show raw JSON');
    toggle.type = 'button';
    toggle.setAttribute('aria-expanded', 'false');
    var pre = el('pre', 'props', rawJson(event));
    pre.hidden = true;
    toggle.addEventListener('click', function () {
      pre.hidden = !pre.hidden;
      toggle.textContent = pre.hidden ? 'Show raw JSON' : 'Hide raw JSON';
      toggle.setAttribute('aria-expanded', String(!pre.hidden));
    });
    box.appendChild(toggle);
    box.appendChild(pre);
    return box;
  }

  // Where the event happened: the page's URL (its host giving way before its path when space is
  // short) or the app's screen. The node's text is the whole of it.
  function placeNode(properties) {
    var node = el('span', 'place');
    var url = properties.$current_url;
    if (url !== undefined && url !== null) {
      var text = shortUrl(url);
      var slash = text.indexOf('/');
      node.appendChild(el('span', 'host', slash === -1 ? text : text.slice(0, slash)));
      if (slash !== -1) node.appendChild(el('span', 'path', text.slice(slash)));
    } else if (properties.$screen_name !== undefined && properties.$screen_name !== null) {
      node.appendChild(el('span', 'path', properties.$screen_name));
    }
    node.title = node.textContent;
    return node;
  }

  function renderRow(event) {
    var properties = event.properties || {};
    var row = el('button', 'row');
    row.type = 'button';
    row.setAttribute('aria-expanded', 'false');
    row.appendChild(timeNode(event.timestamp || event.receivedAt, 'time muted'));
    // A survey event names its survey: which one was shown, answered or dismissed, at a glance.
    var survey = typeof properties.$survey_name === 'string' && /^survey /.test(event.event) ? ' · ' + properties.$survey_name : '';
    row.appendChild(el('span', 'name', event.event + survey));
    row.appendChild(placeNode(properties));
    row.appendChild(personNode('distinct', event.distinct_id));
    var lib = el('span', 'lib muted', properties.$lib === undefined ? '' : properties.$lib);
    if (properties.$lib_version !== undefined) lib.title = properties.$lib + ' ' + properties.$lib_version;
    row.appendChild(lib);
    if (event.warnings && event.warnings.length) row.title = event.warnings.join('; ');
    return row;
  }

  function renderEvent(event) {
    var item = el('li', event.warnings && event.warnings.length ? 'event warn' : 'event');
    item.dataset.seq = String(event.seq);
    var row = renderRow(event);
    item.appendChild(row);
    var toggle = function () {
      var details = item.querySelector('.details');
      if (details) { item.removeChild(details); delete open[event.seq]; }
      else { item.appendChild(renderDetails(event)); open[event.seq] = true; }
      row.setAttribute('aria-expanded', String(!details));
    };
    row.addEventListener('click', toggle);
    if (open[event.seq]) toggle();
    return item;
  }

  function showRows(events, atTop) {
    var fragment = document.createDocumentFragment();
    for (var i = 0; i < events.length; i++) fragment.appendChild(renderEvent(events[i]));
    if (atTop) list.insertBefore(fragment, list.firstChild); else list.appendChild(fragment);
    while (list.children.length > MAX_EVENTS) list.removeChild(list.lastChild);
    showEmpty();
  }
  // The snippets show while nothing was received (not while a search finds nothing).
  function showEmpty() {
    $('empty').hidden = list.children.length > 0 || term !== '';
    $('no-match').hidden = list.children.length > 0 || term === '';
  }

  // A flood was thinned out by the server (see stream.ts): say how many events the list leaves out.
  function addSkipped(skipped) {
    if (paused) return;
    skippedTotal += skipped.count;
    $('skipped-count').textContent = count(skippedTotal);
    $('skipped-note').hidden = false;
  }
  function setOlder(cursor) { older = cursor; $('older').hidden = older === null; }

  function addEvents(batch) {
    if (paused) {
      for (var i = 0; i < batch.length; i++) held.push(batch[i]);
      if (held.length > MAX_EVENTS) held.splice(0, held.length - MAX_EVENTS);
      $('paused-count').textContent = count(held.length);
      $('paused-note').hidden = false;
      return;
    }
    for (var j = 0; j < batch.length; j++) live.push(batch[j]);
    if (live.length > MAX_EVENTS) live.splice(0, live.length - MAX_EVENTS);
    showRows(batch.filter(matches).reverse(), true);
  }

  function search(before) {
    var query = '/_dev/search?limit=' + PAGE + '&q=' + encodeURIComponent(term) + (before ? '&before=' + before : '');
    var asked = term;
    return fetch(query, { cache: 'no-store' })
      .then(function (response) { return response.json(); })
      .then(function (page) {
        if (asked !== term) return;
        if (!before) clear(list);
        showRows(page.events, false);
        setOlder(page.nextBefore);
        $('search-status').textContent = term
          ? plural(page.matched, 'event') + ' match "' + term + '" among all ' + count(page.searched) + ' stored; newest first'
          : '';
      });
  }
  function showLive() {
    clear(list);
    showRows(live.slice().reverse(), false);
    var oldest = live[0];
    setOlder(oldest && oldest.seq > 1 && liveTotal > live.length ? oldest.seq : null);
    $('search-status').textContent = '';
  }
  var liveTotal = 0;
  var searchTimer = null;
  $('search').addEventListener('input', function () {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(function () {
      term = $('search').value.trim().toLowerCase();
      if (term) search(null).catch(function () {}); else showLive();
    }, 200);
  });
  $('older').addEventListener('click', function () { if (older !== null) search(older).catch(function () {}); });

  function setPaused(value) {
    paused = value;
    $('pause').setAttribute('aria-pressed', String(paused));
    $('pause').textContent = paused ? 'Resume' : 'Pause';
    if (!paused) {
      $('paused-note').hidden = true;
      var release = held;
      held = [];
      if (release.length) addEvents(release);
    }
  }
  $('pause').addEventListener('click', function () { setPaused(!paused); });
  $('resume').addEventListener('click', function () { setPaused(false); });

  function resetEvents() {
    live = [];
    held = [];
    open = {};
    liveTotal = 0;
    skippedTotal = 0;
    $('skipped-note').hidden = true;
    $('paused-count').textContent = '0';
    if (term) search(null).catch(function () {}); else showLive();
  }
`;
