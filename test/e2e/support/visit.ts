/**
 * One visit, the same for posthog-js and for hogtail's script tag (event-properties.test.ts): a
 * visitor lands from another site's page (with a referrer) on a URL with UTM and click-id
 * parameters, captures, scrolls, moves through three client-side routes, identifies, and leaves.
 * Only the SDK script and its init() call differ between the two runs; the page, the steps and the
 * collector are the same.
 */
import type { Browser, Page } from 'playwright-core';
import { openPage } from './chromium';

/** The landing URL's query: five UTM parameters and three click ids. */
export const LANDING_QUERY =
  '?utm_source=newsletter&utm_medium=email&utm_campaign=spring_sale&utm_content=hero&utm_term=shoes&gclid=g-123&fbclid=f-456&msclkid=m-789';

/** The browser's time zone and language for both runs (deterministic, and not the machine's own). */
export const TIMEZONE = 'America/Sao_Paulo';
export const LANGUAGE = 'pt-BR';

export interface VisitSdk {
  /** e.g. 'posthog' or 'hogtail': the global the script sets. */
  global: string;
  /** Path of the script on the site. */
  script: string;
  key: string;
  config: Record<string, unknown>;
}

/** Scroll positions (px from the top) on the landing page and on the first route. */
export const SCROLLS = { landing: 1500, route1: 600 };
/** Tall pages, so the scroll percentages are well away from 0 and 1. */
const PAGE_HEIGHT = 4000;

export function landingPage(sdk: VisitSdk): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Spring sale</title>
<script src="${sdk.script}"></script>
<script>${sdk.global}.init(${JSON.stringify(sdk.key)}, ${JSON.stringify(sdk.config)});</script>
</head><body style="margin:0"><div style="height:${PAGE_HEIGHT}px">landing</div></body></html>`;
}

/** The other site's page: a link to the landing page, sending its full URL as the referrer. */
export function referringPage(landingUrl: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="unsafe-url"><title>Elsewhere</title></head>
<body><a id="go" href="${landingUrl}">go</a></body></html>`;
}

const frames = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/**
 * Scrolls and waits for the scroll to end: posthog-js also reads the position at `scrollend`, and
 * the SDKs' listeners, added before this one, have run once it fires. (Every scroll here moves.)
 */
async function scrollTo(page: Page, y: number): Promise<void> {
  await page.evaluate(
    (top) =>
      new Promise<void>((resolve) => {
        addEventListener('scrollend', () => resolve(), { once: true });
        window.scrollTo(0, top);
      }),
    y,
  );
  await frames(page);
}

async function route(page: Page, path: string, title: string): Promise<void> {
  // As a router does: the URL first, then the title in the same task.
  await page.evaluate(
    ([to, name]) => {
      history.pushState({}, '', to);
      document.title = name;
    },
    [path, title] as const,
  );
  await frames(page);
}

const loaded = (page: Page, sdk: VisitSdk) => page.waitForFunction((name) => (window as any)[name]?.__loaded === true, sdk.global);
const call = (page: Page, sdk: VisitSdk, method: string, ...args: unknown[]) =>
  page.evaluate(([name, fn, rest]) => (window as any)[name][fn](...rest), [sdk.global, method, args] as const);

/** A fresh context on `landing` (its URL without the query), reached by the link on `referrer`. */
async function land(browser: Browser, sdk: VisitSdk, referrer: string, landing: string) {
  const context = await browser.newContext({ timezoneId: TIMEZONE });
  const { page, errors } = await openPage(context);
  await page.goto(referrer);
  await Promise.all([page.waitForURL(landing + '*'), page.click('#go')]);
  await loaded(page, sdk);
  return { context, page, errors };
}

/**
 * The visit of a single-page app: from `referrer` (the other site's page) to `landing`, a capture,
 * scrolling, three client-side routes, identify and a capture, then away to `leaveTo`. Returns the
 * page's errors.
 */
export async function visit(browser: Browser, sdk: VisitSdk, referrer: string, landing: string, leaveTo: string): Promise<string[]> {
  const { context, page, errors } = await land(browser, sdk, referrer, landing);
  await call(page, sdk, 'capture', 'custom event', { plan: 'pro' });
  await scrollTo(page, SCROLLS.landing);
  await route(page, '/route-1', 'Route one');
  await scrollTo(page, SCROLLS.route1);
  await route(page, '/route-2', 'Route two');
  await route(page, '/route-3', 'Route three');
  await call(page, sdk, 'identify', 'user-42', { email: 'user@example.com' });
  await call(page, sdk, 'capture', 'custom event', { plan: 'team' });
  await page.goto(leaveTo);
  await context.close();
  return errors;
}

/** A page that moves to another route with no page view of its own (capture_pageview: true), scrolled, then left. */
export async function routeThenLeave(
  browser: Browser,
  sdk: VisitSdk,
  referrer: string,
  landing: string,
  leaveTo: string,
): Promise<string[]> {
  const { context, page, errors } = await land(browser, sdk, referrer, landing);
  await scrollTo(page, SCROLLS.landing);
  await route(page, '/route-1', 'Route one');
  await scrollTo(page, SCROLLS.route1);
  await page.goto(leaveTo);
  await context.close();
  return errors;
}

/**
 * A visitor posthog-js knows: landing with posthog-js (`first`), which registers a super property
 * and a group, then the site's next page `next`, served with `second` (posthog-js again, or
 * hogtail after the switch), where the visitor captures, identifies and leaves.
 */
export async function returningVisit(
  browser: Browser,
  first: VisitSdk,
  second: VisitSdk,
  referrer: string,
  landing: string,
  next: string,
): Promise<string[]> {
  const { context, page, errors } = await land(browser, first, referrer, landing);
  await call(page, first, 'register', { plan: 'pro' });
  await call(page, first, 'group', 'company', 'acme');
  await page.goto(next);
  await loaded(page, second);
  await call(page, second, 'capture', 'after switch');
  await call(page, second, 'identify', 'user-7');
  await page.goto('about:blank');
  await context.close();
  return errors;
}
