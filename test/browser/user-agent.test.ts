import { describe, expect, it } from 'vitest';
import { describeUserAgent } from '../../src/browser/capture/user-agent';

const cases: [string, Record<string, string | number>][] = [
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91',
    { $browser: 'Microsoft Edge', $browser_version: 120, $os: 'Windows', $device_type: 'Desktop' },
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15',
    { $browser: 'Safari', $browser_version: 17.2, $os: 'Mac OS X', $device_type: 'Desktop' },
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1',
    { $browser: 'Mobile Safari', $browser_version: 17.2, $os: 'iOS', $device_type: 'Mobile' },
  ],
  [
    'Mozilla/5.0 (iPad; CPU OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1',
    { $browser: 'Chrome iOS', $browser_version: 120, $os: 'iOS', $device_type: 'Tablet' },
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36',
    { $browser: 'Chrome', $browser_version: 120, $os: 'Android', $device_type: 'Mobile' },
  ],
  [
    'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
    { $browser: 'Firefox', $browser_version: 121, $os: 'Linux', $device_type: 'Desktop' },
  ],
  [
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 OPR/106.0.0.0',
    { $browser: 'Opera', $browser_version: 106, $os: 'Chrome OS', $device_type: 'Desktop' },
  ],
];

describe('describeUserAgent', () => {
  for (const [ua, expected] of cases) {
    it(`${expected.$browser} on ${expected.$os}`, () => {
      expect(describeUserAgent(ua)).toEqual(expected);
    });
  }
});
