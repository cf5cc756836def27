/**
 * `/_dev/replay/<session id>`: a page that plays one session's recording with rrweb's replayer,
 * served by the dev server (player-files.ts), from the events at `/_dev/recordings/<session id>`;
 * `?window=<window id>` picks the tab of a session recorded in several.
 * The recorded page is rebuilt in rrweb's sandboxed iframe (no script of it runs); its styles and
 * images load as they were recorded, so the CSP lets styles, images and fonts in and keeps every
 * script but the page's own out.
 */
import { PLAYER_SCRIPT, PLAYER_STYLE } from './player-files';

/** A session id as an SDK makes it (a UUID) or a test names it: what the routes accept. */
export const SESSION_ID = /^[\w.-]{1,200}$/;

export function playerCsp(nonce: string): string {
  return (
    `default-src 'none'; script-src 'self' 'nonce-${nonce}'; style-src 'self' 'unsafe-inline'; img-src * data: blob:; ` +
    `font-src * data:; media-src * data: blob:; connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`
  );
}

/** `sessionId` matches SESSION_ID (the route checks), so it needs no escaping in an attribute. */
export function renderPlayerPage(sessionId: string, nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Recording ${sessionId} · hogtail dev</title>
<link rel="stylesheet" href="/_dev/replay/${PLAYER_STYLE}">
<style nonce="${nonce}">body{font:14px system-ui,sans-serif;margin:16px}#controls{margin:8px 0;display:flex;gap:8px;align-items:center}#stage{border:1px solid #ccc;display:inline-block}</style>
</head>
<body data-session="${sessionId}">
<p><a href="/">← hogtail dev</a> · recording of session <code>${sessionId}</code></p>
<p id="tabs" hidden></p>
<div id="controls"><button type="button" id="play">Play</button><button type="button" id="pause">Pause</button><button type="button" id="restart">From the start</button><span id="time"></span></div>
<p id="status" aria-live="polite">Loading…</p>
<div id="stage"></div>
<script src="/_dev/replay/${PLAYER_SCRIPT}"></script>
<script nonce="${nonce}">
'use strict';
(function () {
  var status = document.getElementById('status');
  var id = document.body.dataset.session;
  var tab = new URLSearchParams(location.search).get('window');
  // A session recorded in several tabs plays one tab at a time; the others are a link away.
  function showTabs(recording) {
    var tabs = document.getElementById('tabs');
    var played = recording.windowIds.indexOf(recording.windowId);
    if (recording.windowIds.length === 0 || (recording.windowIds.length === 1 && played === 0)) return;
    tabs.textContent = played === -1
      ? 'This session has no recording from window ' + recording.windowId + '. Play tab:'
      : 'Recorded in ' + recording.windowIds.length + ' tabs; this is tab ' + (played + 1) + '. Play tab:';
    recording.windowIds.forEach(function (windowId, index) {
      if (index === played) return;
      var link = document.createElement('a');
      link.href = '?window=' + encodeURIComponent(windowId);
      link.textContent = String(index + 1);
      link.title = 'window ' + windowId;
      tabs.appendChild(document.createTextNode(' '));
      tabs.appendChild(link);
    });
    tabs.hidden = false;
  }
  fetch('/_dev/recordings/' + encodeURIComponent(id) + (tab ? '?window=' + encodeURIComponent(tab) : ''), { cache: 'no-store' })
    .then(function (response) { return response.json(); })
    .then(function (recording) {
      showTabs(recording);
      if (!window.rrwebReplay) { status.textContent = 'rrweb\\'s player is not part of this install.'; return; }
      if (!recording.events.length) { status.textContent = 'No snapshots arrived for this session.'; return; }
      var replayer = new window.rrwebReplay.Replayer(recording.events, { root: document.getElementById('stage'), mouseTail: false, showWarning: false });
      window.replayer = replayer;
      var total = replayer.getMetaData().totalTime;
      status.textContent = recording.events.length + ' rrweb events, ' + Math.round(total / 1000) + ' s';
      var time = document.getElementById('time');
      setInterval(function () { time.textContent = Math.round(replayer.getCurrentTime() / 1000) + ' / ' + Math.round(total / 1000) + ' s'; }, 250);
      document.getElementById('play').addEventListener('click', function () { replayer.play(replayer.getCurrentTime()); });
      document.getElementById('pause').addEventListener('click', function () { replayer.pause(); });
      document.getElementById('restart').addEventListener('click', function () { replayer.play(0); });
      replayer.play();
    })
    .catch(function (error) { status.textContent = 'Could not load the recording: ' + error; });
})();
</script>
</body>
</html>
`;
}
