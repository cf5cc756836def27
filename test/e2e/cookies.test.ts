// Persistence cookies in real Chromium: shared by two subdomains (a host-resolver rule maps
// a.hogtail.test and b.hogtail.test to 127.0.0.1), read by a server from the Cookie header, and
// exchanged with real posthog-js in both directions (identity written by posthog-js, in a cookie or
// in localStorage, is picked up by hogtail; hogtail's cookie is picked up by posthog-js).
// hogtail's state layer and persistence module, and posthog-js, are bundled by esbuild for the page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from './support/chromium';
import { repoRoot } from '../support/built';

const TOKEN = 'phc_cookieTest';
const COOKIE = `ph_${TOKEN}_posthog`;

// The page's view of hogtail: the state layer over the configured backing, as the client builds it.
const HOGTAIL_HARNESS = `
import { createStateStore } from './src/browser/state/state';
import { openStateBacking } from './src/browser/state/persistence';
window.hogtailState = (token, config) => {
  const key = 'ht|' + token + '|p';
  const states = createStateStore(undefined, key, token, undefined, openStateBacking(token, key, config));
  const session = states.session_(Date.now());
  return new Promise((resolve) => setTimeout(() => resolve({ ...states.state_, session })));
};`;
const POSTHOG_HARNESS = `import posthog from 'posthog-js'; window.posthogJs = posthog;`;

let browser: Browser | undefined;
let server: Server | undefined;
let port = 0;
const scripts: Record<string, string> = {};

async function bundle(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: repoRoot, loader: 'ts' },
    bundle: true,
    format: 'iife',
    write: false,
  });
  return result.outputFiles[0]!.text;
}

/** Parses posthog-js's cookie out of a Cookie header, as a server (Django, Express…) would. */
function posthogCookie(header: string | undefined): unknown {
  const pair = (header ?? '').split(/;\s*/).find((part) => part.startsWith(COOKIE + '='));
  return pair && JSON.parse(decodeURIComponent(pair.slice(COOKIE.length + 1)));
}

beforeAll(async () => {
  if (!hasChromium) return;
  scripts['/hogtail.js'] = await bundle(HOGTAIL_HARNESS);
  scripts['/posthog.js'] = await bundle(POSTHOG_HARNESS);
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/echo')
      return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(posthogCookie(req.headers.cookie) ?? null));
    if (scripts[path]) return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(scripts[path]);
    if (path === '/hogtail' || path === '/posthog') {
      return res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<!doctype html><script src="${path}.js"></script>`);
    }
    // posthog-js's own requests (flags, events): a quiet server.
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  browser = await launchChromium(['--host-resolver-rules=MAP a.hogtail.test 127.0.0.1, MAP b.hogtail.test 127.0.0.1']);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

const origin = (host: string) => `http://${host}:${port}`;

interface HogtailState {
  distinct_id: string;
  $device_id: string;
  $user_state: string;
  session: string;
}

async function hogtailOn(
  context: BrowserContext,
  host: string,
  config: Record<string, unknown> = {},
): Promise<{ page: Page; state: HogtailState }> {
  const page = await context.newPage();
  await page.goto(origin(host) + '/hogtail');
  const state = await page.evaluate(([token, options]) => (window as any).hogtailState(token, options), [TOKEN, config] as const);
  return { page, state: state as HogtailState };
}

async function posthogOn(context: BrowserContext, host: string, config: Record<string, unknown> = {}) {
  const page = await context.newPage();
  await page.goto(origin(host) + '/posthog');
  return page.evaluate(
    ([token, options]) => {
      const posthog = (window as any).posthogJs;
      posthog.init(token, {
        api_host: location.origin,
        autocapture: false,
        capture_pageview: false,
        advanced_disable_flags: true,
        disable_session_recording: true,
        ...options,
      });
      return { distinct_id: posthog.get_distinct_id(), device_id: posthog.get_property('$device_id'), session: posthog.get_session_id() };
    },
    [TOKEN, config] as const,
  );
}

const days = (cookie: { expires: number }) => Math.round((cookie.expires * 1000 - Date.now()) / 864e5);

describe.runIf(hasChromium)('persistence cookies', () => {
  it('one visitor and session across two subdomains, and the cookie a server reads says who', async () => {
    const context = await browser!.newContext();
    const a = await hogtailOn(context, 'a.hogtail.test');
    const [cookie] = (await context.cookies()).filter((c) => c.name === COOKIE);
    expect(cookie).toMatchObject({ domain: '.hogtail.test', path: '/', sameSite: 'Lax', secure: false });
    expect(days(cookie!)).toBe(365);

    const b = await hogtailOn(context, 'b.hogtail.test');
    expect(b.state).toMatchObject({ distinct_id: a.state.distinct_id, $device_id: a.state.$device_id, session: a.state.session });

    const seen = await b.page.evaluate(() => fetch('/echo').then((response) => response.json()));
    expect(seen).toEqual({
      distinct_id: a.state.distinct_id,
      $device_id: a.state.$device_id,
      $user_state: 'anonymous',
      $sesid: [expect.any(Number), a.state.session, expect.any(Number)],
    });
    await context.close();
  });

  it('cross_subdomain_cookie: false keeps the cookie on its host; cookie_expiration sets its life', async () => {
    const context = await browser!.newContext();
    const a = await hogtailOn(context, 'a.hogtail.test', { cross_subdomain_cookie: false, cookie_expiration: 30 });
    const [cookie] = (await context.cookies()).filter((c) => c.name === COOKIE);
    expect(cookie!.domain).toBe('a.hogtail.test');
    expect(days(cookie!)).toBe(30);
    const b = await hogtailOn(context, 'b.hogtail.test', { cross_subdomain_cookie: false });
    expect(b.state.distinct_id).not.toBe(a.state.distinct_id);
    await context.close();
  });

  it('secure_cookie marks the cookie secure (localhost is a secure context over http)', async () => {
    const context = await browser!.newContext();
    await hogtailOn(context, 'localhost', { secure_cookie: true });
    const [cookie] = (await context.cookies()).filter((c) => c.name === COOKIE);
    expect(cookie).toMatchObject({ secure: true, domain: 'localhost' });
    await context.close();
  });

  it.each<[string, { persistence?: string }]>([
    ['a cookie', { persistence: 'cookie' }],
    ['localStorage', { persistence: 'localStorage' }],
    ['localStorage+cookie (its default)', {}],
  ])('a visitor whose identity posthog-js keeps in %s keeps it with hogtail', async (_, config) => {
    const context = await browser!.newContext();
    const before = await posthogOn(context, 'a.hogtail.test', config);
    const cookies = (await context.cookies()).filter((c) => c.name === COOKIE);
    expect(cookies).toHaveLength(config.persistence === 'localStorage' ? 0 : 1);
    const { state } = await hogtailOn(context, 'a.hogtail.test');
    expect(state).toMatchObject({ distinct_id: before.distinct_id, $device_id: before.device_id, session: before.session });
    await context.close();
  });

  it('posthog-js on another subdomain picks up the visitor and session hogtail wrote', async () => {
    const context = await browser!.newContext();
    const { state } = await hogtailOn(context, 'a.hogtail.test');
    const after = await posthogOn(context, 'b.hogtail.test');
    expect(after).toEqual({ distinct_id: state.distinct_id, device_id: state.$device_id, session: state.session });
    await context.close();
  });
});
