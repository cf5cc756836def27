/**
 * `$browser`, `$browser_version`, `$os`, `$device_type` from the user agent, named as posthog-js
 * names them so existing insights keep working. Short ordered lists of token,name pairs rather
 * than a UA database (bytes count in the script tag): order matters because Edge and Opera also
 * say Chrome, Chrome says Safari, and iOS says "like Mac OS X".
 */
// "token,name" pairs (an empty name is the token itself); a token is a pattern, so one can cover
// several spellings (Edg, EdgA, EdgiOS; iPhone|iPad|iPod).
const BROWSERS = 'Edg\\w*,Microsoft Edge,OPR,Opera,SamsungBrowser,Samsung Internet,FxiOS,Firefox iOS,CriOS,Chrome iOS,Firefox,,Chrome,,Version,Safari'.split(',');
const SYSTEMS = 'Windows,,iPhone|iPad|iPod,iOS,Android,,CrOS,Chrome OS,Mac,Mac OS X,Linux,'.split(',');

export function describeUserAgent(ua: string): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (let i = 0; i < BROWSERS.length; i += 2) {
    const match = new RegExp(BROWSERS[i] + '/([\\d.]+)').exec(ua);
    if (match) {
      const name = BROWSERS[i + 1] || BROWSERS[i]!;
      out.$browser = name === 'Safari' && /Mobile/.test(ua) ? 'Mobile Safari' : name;
      out.$browser_version = parseFloat(match[1]!);
      break;
    }
  }
  for (let i = 0; i < SYSTEMS.length; i += 2) {
    if (new RegExp(SYSTEMS[i]!).test(ua)) {
      out.$os = SYSTEMS[i + 1] || SYSTEMS[i]!;
      break;
    }
  }
  out.$device_type = /iPad|Tablet/.test(ua) || (/Android/.test(ua) && !/Mobile/.test(ua))
    ? 'Tablet'
    : /Mobi|iPhone|iPod|Android/.test(ua)
      ? 'Mobile'
      : 'Desktop';
  return out;
}
