/**
 * `$browser`, `$browser_version`, `$os`, `$device_type` from the user agent, named as posthog-js
 * names them so existing insights keep working. Short ordered lists of token,name pairs rather
 * than a UA database (bytes count in the script tag): order matters because Edge and Opera also
 * say Chrome, Chrome says Safari, and iOS says "like Mac OS X".
 */
// "token,name," pairs, each ending in a comma (an empty name is the token itself), read by PAIR; a
// token is a pattern, so one can cover several spellings (Edg, EdgA, EdgiOS; iPhone|iPad|iPod).
const BROWSERS =
  'Edg\\w*,Microsoft Edge,OPR,Opera,SamsungBrowser,Samsung Internet,FxiOS,Firefox iOS,CriOS,Chrome iOS,Firefox,,Chrome,,Version,Safari,';
const SYSTEMS = 'Windows,,iPhone|iPad|iPod,iOS,Android,,CrOS,Chrome OS,Mac,Mac OS X,Linux,,';
const PAIR = /([^,]+),([^,]*),/g;

export function describeUserAgent(ua: string): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [, token, given] of BROWSERS.matchAll(PAIR)) {
    const match = new RegExp(token + '/([\\d.]+)').exec(ua);
    if (match) {
      const name = given || token!;
      out.$browser = name === 'Safari' && /Mobile/.test(ua) ? 'Mobile Safari' : name;
      out.$browser_version = parseFloat(match[1]!);
      break;
    }
  }
  for (const [, token, given] of SYSTEMS.matchAll(PAIR)) {
    if (new RegExp(token!).test(ua)) {
      out.$os = given || token!;
      break;
    }
  }
  out.$device_type =
    /iPad|Tablet/.test(ua) || (/Android/.test(ua) && !/Mobile/.test(ua))
      ? 'Tablet'
      : /Mobi|iPhone|iPod|Android/.test(ua)
        ? 'Mobile'
        : 'Desktop';
  return out;
}
