/**
 * The live page's session recordings panel: each recorded session (from `/_dev/recordings`) with
 * who it was, when, how long and how big, linked to its player page. Refreshed with the other
 * panels; writes only textContent and attribute values it builds itself.
 */
export const PAGE_SCRIPT_RECORDINGS = `
  var recordingsBusy = false;
  function loadRecordings() {
    if (recordingsBusy) return;
    recordingsBusy = true;
    fetch('/_dev/recordings', { cache: 'no-store' })
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        var list = $('recordings');
        clear(list);
        answer.recordings.forEach(function (recording) {
          var item = el('li');
          var link = el('a', '', 'Play ' + recording.sessionId.slice(-12));
          link.href = '/_dev/replay/' + encodeURIComponent(recording.sessionId);
          link.title = recording.sessionId;
          item.appendChild(link);
          item.appendChild(el('span', 'muted', ' ' + recording.distinctId + ' · ' + localTime(new Date(recording.start).toISOString()) +
            ' · ' + Math.max(1, Math.round((recording.end - recording.start) / 1000)) + ' s · ' + count(recording.events) + ' rrweb events' +
            (recording.windows > 1 ? ' · ' + recording.windows + ' tabs' : '')));
          list.appendChild(item);
        });
        $('recordings-empty').hidden = answer.recordings.length > 0;
      })
      .catch(function () {})
      .then(function () { recordingsBusy = false; });
  }
`;
