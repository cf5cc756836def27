/**
 * How the live page writes things a person reads at a glance: times as "12 s ago" (the exact local
 * time on hover, kept current by one timer), counts with the locale's grouping (1,234), a URL
 * without its scheme, and people as a colour and the end of their id, so two anonymous ids that
 * share a long UUIDv7 prefix still look different. Every helper builds nodes with textContent only.
 */
export const PAGE_SCRIPT_FORMAT = `
  var $ = function (id) { return document.getElementById(id); };
  var numberFormat = new Intl.NumberFormat();
  function count(n) { return numberFormat.format(Number(n) || 0); }
  function plural(n, word) { return count(n) + ' ' + word + (Number(n) === 1 ? '' : 's'); }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function pad(n, width) { var s = String(n); while (s.length < (width || 2)) s = '0' + s; return s; }

  // Local time with its date and the zone spelled out, e.g. 2024-05-01 12:00:00 UTC+02:00.
  function zoneOf(date) {
    var offset = -date.getTimezoneOffset();
    var sign = offset < 0 ? '-' : '+';
    offset = Math.abs(offset);
    return 'UTC' + sign + pad(Math.floor(offset / 60)) + ':' + pad(offset % 60);
  }
  function localTime(iso) {
    var date = new Date(iso);
    if (!iso || isNaN(date.getTime())) return String(iso || '');
    return date.getFullYear() + '-' + pad(date.getMonth() + 1) + '-' + pad(date.getDate()) + ' ' +
      pad(date.getHours()) + ':' + pad(date.getMinutes()) + ':' + pad(date.getSeconds()) + ' ' + zoneOf(date);
  }

  // "just now", "12 s ago", "5 min ago", "3 h ago", "2 d ago"; "in 4 s" for a clock that runs ahead.
  function relativeTime(ms, now) {
    var seconds = Math.round((now - ms) / 1000);
    var ahead = seconds < 0;
    var size = Math.abs(seconds);
    if (size < 2) return 'just now';
    var text = size < 60 ? size + ' s' : size < 3600 ? Math.floor(size / 60) + ' min' : size < 86400 ? Math.floor(size / 3600) + ' h' : Math.floor(size / 86400) + ' d';
    return ahead ? 'in ' + text : text + ' ago';
  }
  // One timer keeps every relative time on the page current; recent ones each second, older ones
  // every 15 s, so a list of thousands costs next to nothing.
  var ticks = 0;
  function timeNode(iso, className) {
    var node = el('time', className, '');
    var ms = new Date(iso).getTime();
    node.dateTime = String(iso || '');
    node.title = localTime(iso);
    node.dataset.ms = String(ms);
    node.textContent = isNaN(ms) ? String(iso || '') : relativeTime(ms, Date.now());
    return node;
  }
  setInterval(function () {
    ticks++;
    var now = Date.now();
    var nodes = document.querySelectorAll('time[data-ms]');
    for (var i = 0; i < nodes.length; i++) {
      var ms = Number(nodes[i].dataset.ms);
      if (isNaN(ms) || (now - ms > 60000 && ticks % 15 !== 0)) continue;
      var text = relativeTime(ms, now);
      if (nodes[i].textContent !== text) nodes[i].textContent = text;
    }
  }, 1000);

  // A URL as people say it: host and path, without the scheme.
  function shortUrl(value) {
    var text = String(value);
    return text.replace(/^[a-z][a-z0-9+.-]*:\\/\\//i, '');
  }

  // The same id always gets the same hue; different ids almost always get different ones.
  function hueOf(text) {
    var hash = 2166136261;
    for (var i = 0; i < text.length; i++) { hash ^= text.charCodeAt(i); hash = Math.imul(hash, 16777619); }
    return (hash >>> 0) % 360;
  }
  var TAIL = 6;
  // A colour dot, then the id cut in the middle when it does not fit: the start ellipsised, the last
  // six characters always shown. Its text is the whole id (for copying and for tests).
  function personNode(className, id) {
    var text = String(id);
    var node = el('span', 'person ' + className);
    node.title = text;
    var dot = el('span', 'dot');
    dot.style.backgroundColor = 'hsl(' + hueOf(text) + ', 65%, 48%)';
    dot.setAttribute('aria-hidden', 'true');
    node.appendChild(dot);
    var cut = text.length > TAIL + 4 ? text.length - TAIL : text.length;
    node.appendChild(el('span', 'head', text.slice(0, cut)));
    if (cut < text.length) node.appendChild(el('span', 'tail', text.slice(cut)));
    return node;
  }
`;
