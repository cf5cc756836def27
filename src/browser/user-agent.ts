/**
 * `$browser`, `$browser_version`, `$os`, `$device_type` from the user agent, named as posthog-js
 * names them so existing insights keep working. Short ordered lists of "token|name" pairs rather
 * than a UA database (bytes count in the script tag): order matters because Edge and Opera also
 * say Chrome, Chrome says Safari, and iOS says "like Mac OS X".
 */
const BROWSERS = 'Edg[A-Za-z]*|Microsoft Edge|OPR|Opera|SamsungBrowser|Samsung Internet|FxiOS|Firefox iOS|CriOS|Chrome iOS|Firefox|Firefox|Chrome|Chrome|Version|Safari'.split('|');
const SYSTEMS = 'Windows|Windows|iPhone|iOS|iPad|iOS|iPod|iOS|Android|Android|CrOS|Chrome OS|Mac|Mac OS X|Linux|Linux'.split('|');

export function describeUserAgent(ua: string): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (let i = 0; i < BROWSERS.length; i += 2) {
    const match = new RegExp(BROWSERS[i] + '/([\\d.]+)').exec(ua);
    if (match) {
      const name = BROWSERS[i + 1]!;
      out.$browser = name === 'Safari' && /Mobile/.test(ua) ? 'Mobile Safari' : name;
      out.$browser_version = parseFloat(match[1]!);
      break;
    }
  }
  for (let i = 0; i < SYSTEMS.length; i += 2) {
    if (new RegExp(SYSTEMS[i]!).test(ua)) {
      out.$os = SYSTEMS[i + 1]!;
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
