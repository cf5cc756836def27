// Where the browser tests and benchmarks find Chromium, the way playwright users expect: the
// CHROMIUM_PATH environment variable, else playwright's own PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH,
// else the usual install paths, else a Chromium that `npx playwright install chromium` downloaded.
// Nothing here downloads a browser. A variable that names a missing file is an error, not a reason
// to look elsewhere: the person who set it meant that browser.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM_VARIABLES = ['CHROMIUM_PATH', 'PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH'];

export const CHROMIUM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/opt/google/chrome/chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
  'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
];

/** Where `npx playwright install chromium` puts its browser (PLAYWRIGHT_BROWSERS_PATH included). */
function playwrightDownload() {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

/**
 * `{ path }` of the Chromium to use, or `{ problem }`: one sentence saying what was looked at and
 * how to point at a browser. `exists` is for tests.
 */
export function findChromium(env = process.env, exists = existsSync) {
  for (const name of CHROMIUM_VARIABLES) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    if (exists(value)) return { path: value, source: name };
    return { problem: `${name} is set to ${value}, which does not exist; point it at a Chromium or Chrome executable` };
  }
  const downloaded = playwrightDownload();
  const candidates = downloaded === undefined ? CHROMIUM_PATHS : [...CHROMIUM_PATHS, downloaded];
  const found = candidates.find((path) => exists(path));
  if (found !== undefined) return { path: found, source: found === downloaded ? 'playwright' : 'install path' };
  return {
    problem:
      `no Chromium found: looked at ${candidates.join(', ')}. Install one (apt-get install chromium, or ` +
      'npx playwright install chromium) or set CHROMIUM_PATH to a Chromium or Chrome executable',
  };
}
