// Real errors and rejections thrown in real Chromium, read by src/browser/exceptions.ts (bundled by
// esbuild for this page): the frames must point at the app's own script, lines and functions.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { ExceptionProperties } from '../../src/core/exceptions';
import { hasChromium, launchChromium } from './support/chromium';
import { startStaticServer, type StaticServer } from './support/static-server';
import { repoRoot } from '../support/built';

// Line numbers below are asserted: keep this text as it is.
const APP = `function parseConfig(text) {
  return JSON.parse(text);
}
function boot() {
  try { parseConfig('{bad'); } catch (e) { throw new Error('boot failed', { cause: e }); }
}
setTimeout(boot, 0);
async function loadUser() { throw new TypeError('user missing'); }
loadUser();
Promise.reject('plain reason');
`;

let browser: Browser | undefined;
let server: StaticServer | undefined;

beforeAll(async () => {
  if (!hasChromium) return;
  const bundle = await build({
    entryPoints: [repoRoot + 'src/browser/exceptions.ts'],
    bundle: true,
    format: 'iife',
    globalName: 'HogtailExceptions',
    write: false,
  });
  server = await startStaticServer();
  const code = bundle.outputFiles[0]!.text;
  server.page('/', `<!doctype html><html><head><meta charset="utf-8">
<script>${code}</script>
<script>window.captured = []; HogtailExceptions.startExceptionAutocapture(window, (p) => captured.push(p));</script>
<script src="/app.js"></script></head><body>app</body></html>`);
  const appFile = join(mkdtempSync(join(tmpdir(), 'hogtail-exceptions-')), 'app.js');
  writeFileSync(appFile, APP);
  server.file('/app.js', appFile);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe.runIf(hasChromium)('exceptions in Chromium', () => {
  it('parses the frames of a thrown error with a cause, a rejected async function and a rejected string', async () => {
    const page = await browser!.newPage();
    await page.goto(server!.url + '/');
    await page.waitForFunction(() => (window as unknown as { captured: unknown[] }).captured.length >= 3);
    const captured = (await page.evaluate(() => (window as unknown as { captured: ExceptionProperties[] }).captured)).map((p) => p.$exception_list);
    const byValue = (value: string) => captured.find((list) => list[0]!.value === value)!;
    const app = server!.url + '/app.js';

    const boot = byValue('boot failed');
    // V8 places a `throw new Error()` frame at the `new`.
    const column = APP.split('\n')[4]!.indexOf('new Error') + 1;
    expect(boot.map((e) => [e.type, e.mechanism.type, e.mechanism.handled])).toEqual([
      ['Error', 'onerror', false],
      ['SyntaxError', 'chained', false],
    ]);
    expect(boot[0]!.stacktrace!.frames.at(-1)).toEqual({ platform: 'web:javascript', function: 'boot', filename: app, lineno: 5, colno: column, in_app: true });
    const cause = boot[1]!.stacktrace!.frames;
    expect(cause.slice(-3).map((f) => [f.function, f.filename, f.lineno, f.in_app])).toEqual([
      ['boot', app, 5, true],
      ['parseConfig', app, 2, true],
      ['JSON.parse', '<anonymous>', undefined, false],
    ]);

    const user = byValue('user missing');
    expect(user[0]).toMatchObject({ type: 'TypeError', mechanism: { type: 'onunhandledrejection', handled: false } });
    expect(user[0]!.stacktrace!.frames.at(-1)).toMatchObject({ function: 'loadUser', filename: app, lineno: 8, in_app: true });

    const plain = byValue('plain reason');
    expect(plain[0]).toMatchObject({ type: 'Error', mechanism: { type: 'onunhandledrejection', synthetic: true } });
    expect(plain[0]!.stacktrace).toBeUndefined();
    await page.close();
  });
});
