// How the browser tests find Chromium: the variables first (a wrong one is an error, not a reason to
// look elsewhere), then the usual install paths in order, and a sentence saying where it looked
// and what to do when there is none.
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATHS, findChromium } from '../../scripts/lib/find-chromium.js';

const only =
  (...present: string[]) =>
  (path: string) =>
    present.includes(path);

describe('findChromium', () => {
  it('takes CHROMIUM_PATH first, then PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH, over any install path', () => {
    const exists = only('/custom/chrome', '/pw/chrome', '/usr/bin/chromium');
    expect(findChromium({ CHROMIUM_PATH: '/custom/chrome', PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: '/pw/chrome' }, exists)).toEqual({
      path: '/custom/chrome',
      source: 'CHROMIUM_PATH',
    });
    expect(findChromium({ PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: '/pw/chrome' }, exists)).toEqual({
      path: '/pw/chrome',
      source: 'PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH',
    });
  });

  it('says so when a variable names a file that does not exist, even if Chromium is installed elsewhere', () => {
    const found = findChromium({ CHROMIUM_PATH: '/not/there' }, only('/usr/bin/chromium'));
    expect(found.path).toBeUndefined();
    expect(found.problem).toBe('CHROMIUM_PATH is set to /not/there, which does not exist; point it at a Chromium or Chrome executable');
  });

  it('looks at the usual install paths in order when no variable is set', () => {
    expect(findChromium({}, only('/usr/bin/chromium-browser', '/snap/bin/chromium'))).toEqual({
      path: '/usr/bin/chromium-browser',
      source: 'install path',
    });
    expect(findChromium({}, only('/snap/bin/chromium'))).toEqual({ path: '/snap/bin/chromium', source: 'install path' });
    expect(findChromium({ CHROMIUM_PATH: '' }, only('/usr/bin/google-chrome'))).toEqual({
      path: '/usr/bin/google-chrome',
      source: 'install path',
    });
  });

  it('names every place it looked and how to point at a browser when there is none', () => {
    const found = findChromium({}, only());
    expect(found.path).toBeUndefined();
    for (const path of CHROMIUM_PATHS) expect(found.problem).toContain(path);
    expect(found.problem).toMatch(/^no Chromium found: looked at .*set CHROMIUM_PATH to a Chromium or Chrome executable$/);
  });
});
