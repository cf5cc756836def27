// An ingestion host whose 2xx answer never ends (issue 16): the page reads the body only up to a
// cap, so the request completes, the event counts as delivered, and the page is not filled with it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { KEY, useChromiumSite } from './support/site';

describe.skipIf(!hasChromium)('a host that answers with an endless body', () => {
  const env = useChromiumSite();
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
      res.write('{"status":"Ok"}');
      const chunk = ' '.repeat(65_536);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('the request completes after the capped read and the event is delivered', async () => {
    const config = { api_host: url, capture_pageview: false, advanced_disable_flags: true, flush_at: 1, request_timeout: 600_000 };
    env.site.server.page(
      '/endless.html',
      `<!doctype html><html><head><script src="/hogtail.iife.js"></script><script>hogtail.init(${JSON.stringify(KEY)}, ${JSON.stringify(config)});</script></head><body></body></html>`,
    );
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + '/endless.html');
    await page.evaluate(() => (window as any).hogtail.capture('endless answer'));
    // Only the cap can end this request: its deadline is ten minutes away.
    await page.waitForFunction(() => (window as any).hogtail.stats().delivered === 1, undefined, { timeout: 30_000 });
    expect(await page.evaluate(() => (window as any).hogtail.stats().retries)).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
