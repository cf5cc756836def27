// Leaving the page at every point of a flush (issue 27, item 17): before it starts, while its body
// is being compressed, right after the compressed body is ready, and while its request is at the
// server. Each point is made deterministic: the page's CompressionStream is one the test holds
// shut (then opens), and the collector holds the request open. Every event must arrive with the
// closing page (its keepalive request or its beacon), duplicates allowed under the same uuid; no
// next page of the origin is opened, since many visitors never return.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, openPage } from './support/chromium';
import { problems, sdkPage, useChromiumSite, waitForIndexes } from './support/site';

const COUNT = 20;

/**
 * Before any script: CompressionStream replaced by the real one followed by a gate. Nothing comes
 * out until `__gate.open()`; `__gate.started` counts the streams made, `__gate.finished` those whose
 * compressed body is complete.
 */
async function installGate(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const Real = CompressionStream;
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const gate = { started: 0, finished: 0, open: () => open() };
    (window as unknown as { __gate: typeof gate }).__gate = gate;
    window.CompressionStream = class {
      readonly writable: WritableStream;
      readonly readable: ReadableStream;
      constructor(format: CompressionFormat) {
        const real = new Real(format);
        gate.started++;
        this.writable = real.writable;
        this.readable = real.readable.pipeThrough(
          new TransformStream({
            async transform(chunk, controller) {
              await opened;
              controller.enqueue(chunk);
            },
            flush() {
              gate.finished++;
            },
          }),
        );
      }
    } as unknown as typeof CompressionStream;
  });
}

const gate = (page: Page) => page.evaluate(() => (window as unknown as { __gate: { started: number; finished: number } }).__gate);

/** Captures COUNT events named `name` with no flush of their own (flush_at and flush_interval far off). */
async function capture(page: Page, name: string): Promise<void> {
  await page.evaluate(
    ([event, count]) => {
      for (let i = 0; i < count; i++) (window as any).hogtail.capture(event, { i });
    },
    [name, COUNT] as const,
  );
}

const startFlush = (page: Page) => page.evaluate(() => void (window as any).hogtail.flush());

describe.skipIf(!hasChromium)('leaving the page at every point of a flush', () => {
  const env = useChromiumSite();

  async function open(path: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    env.site.server.page(path, sdkPage(env.site.collector.url, { flush_at: 1000, flush_interval: 600_000 }));
    const context = await env.browser.newContext();
    await installGate(context);
    const { page, errors } = await openPage(context);
    await page.goto(env.site.server.url + path);
    return { context, page, errors };
  }

  async function expectAllArrived(name: string, errors: string[], context: BrowserContext): Promise<void> {
    const seen = await waitForIndexes(env.site.collector, name, COUNT, 15_000);
    expect(problems(seen, COUNT)).toEqual({ missing: [], reissued: [] });
    expect(errors).toEqual([]);
    await context.close();
  }

  it('before the flush: the beacon carries them', async () => {
    const { context, page, errors } = await open('/before.html');
    await capture(page, 'left before');
    await page.close({ runBeforeUnload: true });
    await expectAllArrived('left before', errors, context);
  });

  it('while the body is being compressed: the beacon carries them (the request never started)', async () => {
    const { context, page, errors } = await open('/during.html');
    await capture(page, 'left during');
    await startFlush(page);
    await expect.poll(async () => (await gate(page)).started).toBe(1);
    await page.close({ runBeforeUnload: true });
    await expectAllArrived('left during', errors, context);
  });

  it('right after the compressed body is ready: they arrive', async () => {
    const { context, page, errors } = await open('/after.html');
    await capture(page, 'left after');
    await startFlush(page);
    await expect.poll(async () => (await gate(page)).started).toBe(1);
    await page.evaluate(() => (window as unknown as { __gate: { open(): void } }).__gate.open());
    await expect.poll(async () => (await gate(page)).finished).toBe(1);
    await page.close({ runBeforeUnload: true });
    await expectAllArrived('left after', errors, context);
  });

  it('while the request is at the server (held open): the keepalive request delivers them', async () => {
    const held: (() => void)[] = [];
    env.site.collector.setFault((exchange) => {
      if (exchange.outcome.kind !== 'accepted' || exchange.outcome.beacon) return false;
      exchange.record();
      held.push(() => exchange.respond());
      return true;
    });
    try {
      const { context, page, errors } = await open('/request.html');
      await page.evaluate(() => (window as unknown as { __gate: { open(): void } }).__gate.open());
      await capture(page, 'left in request');
      await startFlush(page);
      await expect.poll(() => held.length).toBe(1);
      await page.close({ runBeforeUnload: true });
      held.splice(0).forEach((respond) => respond());
      await expectAllArrived('left in request', errors, context);
    } finally {
      env.site.collector.setFault(undefined);
      held.splice(0).forEach((respond) => respond());
    }
  });
});
