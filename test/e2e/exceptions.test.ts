// Real errors and rejections thrown in real Chromium, read by src/browser/features/exceptions.ts (bundled by
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

const PEER_APP = `function parseConfig(text) {
  return JSON.parse(text);
}
function boot() {
  try { parseConfig('{bad'); } catch (e) { return new AggregateError([e, 'second'], 'boot failed', { cause: new RangeError('port') }); }
}
window.theError = boot();
`;

let browser: Browser | undefined;
let server: StaticServer | undefined;

beforeAll(async () => {
  if (!hasChromium) return;
  const bundle = await build({
    entryPoints: [repoRoot + 'src/browser/features/exceptions.ts'],
    bundle: true,
    format: 'iife',
    globalName: 'HogtailExceptions',
    write: false,
  });
  server = await startStaticServer();
  const code = bundle.outputFiles[0]!.text;
  server.page(
    '/',
    `<!doctype html><html><head><meta charset="utf-8">
<script>${code}</script>
<script>window.captured = []; HogtailExceptions.startExceptionAutocapture(window, (p) => captured.push(p));</script>
<script src="/app.js"></script></head><body>app</body></html>`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'hogtail-exceptions-'));
  writeFileSync(join(dir, 'app.js'), APP);
  server.file('/app.js', join(dir, 'app.js'));
  // The same error for hogtail and posthog-js (bundled from node_modules) to describe.
  const peer = await build({
    stdin: { contents: "import posthog from 'posthog-js'; window.posthogJs = posthog;", resolveDir: repoRoot },
    bundle: true,
    format: 'iife',
    write: false,
  });
  writeFileSync(join(dir, 'posthog.js'), peer.outputFiles[0]!.text);
  server.file('/posthog.js', join(dir, 'posthog.js'));
  writeFileSync(join(dir, 'peer-app.js'), PEER_APP);
  server.file('/peer-app.js', join(dir, 'peer-app.js'));
  server.page(
    '/peer',
    `<!doctype html><html><head><meta charset="utf-8"><script>${code}</script>
<script src="/posthog.js"></script><script src="/peer-app.js"></script></head><body>peer</body></html>`,
  );
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
    const captured = (await page.evaluate(() => (window as unknown as { captured: ExceptionProperties[] }).captured)).map(
      (p) => p.$exception_list,
    );
    const byValue = (value: string) => captured.find((list) => list[0]!.value === value)!;
    const app = server!.url + '/app.js';

    const boot = byValue('boot failed');
    // V8 places a `throw new Error()` frame at the `new`.
    const column = APP.split('\n')[4]!.indexOf('new Error') + 1;
    expect(boot.map((e) => [e.type, e.mechanism.type, e.mechanism.handled])).toEqual([
      ['Error', 'onerror', false],
      ['SyntaxError', 'chained', undefined],
    ]);
    expect(boot[0]!.stacktrace!.frames.at(-1)).toEqual({
      platform: 'web:javascript',
      function: 'boot',
      filename: app,
      lineno: 5,
      colno: column,
      in_app: true,
    });
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

  it('describes an error as posthog-js does (entries, mechanisms, frames), so issues group alike', async () => {
    const page = await browser!.newPage();
    await page.goto(server!.url + '/peer');
    const [ours, theirs] = await page.evaluate(() => {
      const w = window as any;
      let peer: unknown;
      w.posthogJs.init('phc_peer', {
        api_host: location.origin,
        persistence: 'memory',
        autocapture: false,
        capture_pageview: false,
        advanced_disable_flags: true,
        // posthog-js drops events from HeadlessChrome as a bot otherwise.
        opt_out_useragent_filter: true,
        before_send: (event: { event: string; properties: Record<string, unknown> }) => {
          if (event.event === '$exception') peer = event.properties.$exception_list;
          return null;
        },
      });
      w.posthogJs.captureException(w.theError);
      return [w.HogtailExceptions.exceptionEventProperties(w.theError).$exception_list, peer];
    });
    const shape = (list: any[]) =>
      list.map(({ type, value, mechanism, stacktrace }) => ({
        type,
        value,
        mechanism,
        frames: stacktrace?.frames.map(({ filename, function: fn, lineno, colno, in_app, platform }: any) => ({
          filename,
          function: fn,
          lineno,
          colno,
          in_app,
          platform,
        })),
      }));
    expect(shape(ours)).toHaveLength(4);
    expect(shape(ours)).toEqual(shape(theirs as any[]));
    await page.close();
  });
});
