/**
 * The live page's side panels and controls: counts, rejected requests with a sample of each body,
 * flag definitions, what each user got (paged), clearing, and the connection to `/_dev/stream`.
 * Runs in the same closure as the event list (page-script-events.ts) and writes only textContent.
 */
export const PAGE_SCRIPT_PANELS = `
  var USERS_PAGE = 25;
  var usersOffset = 0;
  var flagKeys = [];
  var SAMPLE_SHOWN = 500;

  function renderRejections(summary) {
    var recent = $('rejection-list');
    clear(recent);
    summary.rejections.recent.forEach(function (rejection) {
      var item = el('li');
      var line = el('div');
      line.appendChild(timeNode(rejection.at, 'muted'));
      line.appendChild(document.createTextNode(' '));
      line.appendChild(el('b', '', rejection.status + ' '));
      line.appendChild(el('span', '', (rejection.method || '') + ' ' + rejection.path));
      item.appendChild(line);
      item.appendChild(el('div', '', rejection.reason));
      if (rejection.sender) item.appendChild(el('div', 'muted sender', 'from ' + rejection.sender));
      if (rejection.sample) {
        var sample = rejection.sample.length > SAMPLE_SHOWN ? rejection.sample.slice(0, SAMPLE_SHOWN) + '… (' + rejection.sample.length + '+ characters)' : rejection.sample;
        item.appendChild(el('pre', 'sample', sample));
      }
      recent.appendChild(item);
    });
    var byReason = $('rejections').tBodies[0];
    clear(byReason);
    summary.rejections.byReason.forEach(function (entry) {
      var row = el('tr');
      row.appendChild(el('td', '', entry.status));
      row.appendChild(el('td', '', entry.reason));
      row.appendChild(el('td', 'number', count(entry.count)));
      byReason.appendChild(row);
    });
    var none = summary.rejections.byReason.length === 0;
    $('rejections-empty').hidden = !none;
    $('rejections-by-reason').hidden = none;
    $('rejections').hidden = none;
  }

  function renderFlags(flags) {
    $('flags-file').textContent = flags.file ? 'from ' + flags.file + ' (read ' + localTime(flags.loadedAt) + ')' : 'No flags file: start with --flags flags.json';
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
    flagKeys = flags.definitions.map(function (flag) { return flag.key; });
  }

  function renderUsers(page) {
    var table = $('assignments');
    clear(table.tHead);
    clear(table.tBodies[0]);
    $('users-count').textContent = '(' + plural(page.total, 'user') + ')';
    var last = Math.min(page.offset + page.users.length, page.total);
    $('users-page').textContent = page.total ? count(page.offset + 1) + '–' + count(last) + ' of ' + count(page.total) : '';
    $('users-prev').disabled = page.offset === 0;
    $('users-next').disabled = last >= page.total;
    if (!flagKeys.length || !page.users.length) return;
    var head = el('tr');
    head.appendChild(el('th', '', 'distinct id'));
    flagKeys.forEach(function (key) { head.appendChild(el('th', '', key)); });
    table.tHead.appendChild(head);
    page.users.forEach(function (user) {
      var row = el('tr');
      var who = el('td', 'who');
      who.appendChild(personNode('', user.distinctId));
      who.title = user.distinctId + (user.source === 'decide' ? ': as decide answered at ' + localTime(user.at) : ': evaluated now (no decide request seen)');
      row.appendChild(who);
      flagKeys.forEach(function (key) {
        var value = user.flags[key];
        row.appendChild(el('td', value === false ? 'off' : 'on', value === undefined ? '–' : String(value)));
      });
      table.tBodies[0].appendChild(row);
    });
  }
  function loadUsers() {
    return fetch('/_dev/flag-users?limit=' + USERS_PAGE + '&offset=' + usersOffset, { cache: 'no-store' })
      .then(function (response) { return response.json(); })
      .then(renderUsers);
  }
  $('users-prev').addEventListener('click', function () { usersOffset = Math.max(0, usersOffset - USERS_PAGE); loadUsers().catch(function () {}); });
  $('users-next').addEventListener('click', function () { usersOffset += USERS_PAGE; loadUsers().catch(function () {}); });

  function renderSummary(summary) {
    $('count-events').textContent = count(summary.events.total);
    $('count-people').textContent = count(summary.people);
    $('count-groups').textContent = count(summary.groupsTotal);
    $('count-rejected').textContent = count(summary.rejections.total);
    $('clear-dir').textContent = summary.dataDir;
    renderRejections(summary);
    renderFlags(summary.flags);
    if (summary.insights) renderInsights(summary.insights);
    loadRecordings();
    return loadUsers();
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

  var dialog = $('clear-dialog');
  $('clear').addEventListener('click', function () { $('clear-files').checked = false; dialog.showModal(); });
  $('clear-cancel').addEventListener('click', function () { dialog.close(); });
  $('clear-confirm').addEventListener('click', function () {
    var files = $('clear-files').checked;
    dialog.close();
    fetch('/_dev/clear' + (files ? '?files=delete' : ''), { method: 'POST', headers: { 'x-hogtail-dev-clear': '1' } })
      .then(function () { resetEvents(); refreshSummary(); })
      .catch(function () {});
  });

  var status = $('status');
  var source = new EventSource('/_dev/stream');
  source.addEventListener('open', function () { status.dataset.state = 'live'; status.textContent = 'live'; });
  source.addEventListener('error', function () { status.dataset.state = 'disconnected'; status.textContent = 'reconnecting…'; });
  source.addEventListener('events', function (message) { addEvents(JSON.parse(message.data)); refreshSummary(); });
  source.addEventListener('skipped', function (message) { addSkipped(JSON.parse(message.data)); });
  source.addEventListener('ready', function (message) {
    liveTotal = JSON.parse(message.data).total;
    if (!term) showLive();
    refreshSummary();
  });
  source.addEventListener('cleared', resetEvents);
  source.addEventListener('changed', refreshSummary);
  refreshSummary();
`;
