// Autocapture in real Chromium with real mouse clicks and typing: what arrives at the collector,
// next to what posthog-js records on the same page for the same clicks (same chain, same text);
// rage clicks; the server's autocapture_opt_out (remembered across a reload); opt-out; off.
import { describe, expect, it } from 'vitest';
import { autocapturePage, hogtailEvents, posthogEvents } from './autocapture-page';
import { hasChromium, openPage } from './support/chromium';
import { startRecordingCollector } from './support/recording-collector';
import { useChromiumSite } from './support/site';

const PAGE = `
<main id="app" class="layout">
  <section class="card pricing" data-plan="pro">
    <div class="card-body">
      <div class="actions row">
        <div class="btn-group" data-testid="group">
          <button id="buy" class="btn btn-primary" type="button" aria-label="Buy the pro plan" data-ph-capture-attribute-plan="pro">
            Buy <span class="price">now <span class="amount">$20</span></span>
          </button>
        </div>
      </div>
    </div>
  </section>
  <nav><a class="nav" href="#docs" title="Docs &quot;quoted&quot;">Docs <span class="badge">new</span></a></nav>
  <button id="icon" class="icon-btn"><svg width="40" height="40" viewBox="0 0 10 10"><path d="M0 0h10v10H0z"></path></svg></button>
  <fancy-card id="card"></fancy-card>
  <form id="signup" class="signup" onsubmit="event.preventDefault()">Join
    <input type="text" name="nickname" id="nick">
    <button type="submit" id="join">Join now</button>
  </form>
  <div id="dead" style="width: 200px; height: 60px">Nothing to click</div>
</main>
<script>
  customElements.define('fancy-card', class extends HTMLElement {
    constructor() {
      super();
      this.attachShadow({ mode: 'open' }).innerHTML = '<div class="shell"><button class="inner" id="open"><span class="label">Open card</span></button></div>';
    }
  });
</script>`;

describe.skipIf(!hasChromium)('autocapture in Chromium', () => {
  const env = useChromiumSite();

  it('records nested elements, SVG icons, links, shadow DOM and forms exactly as posthog-js does on the same page', async () => {
    const { site } = env;
    site.collector.clear();
    site.server.page('/parity.html', autocapturePage(site, PAGE, { posthog: true, config: { rageclick: false } }));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(site.server.url + '/parity.html');
    await page.waitForFunction(() => (window as any).posthog?.__loaded && (window as any).hogtail);

    await page.click('.amount');
    await page.click('#buy', { position: { x: 5, y: 5 } });
    await page.click('a.nav .badge');
    await page.click('#icon path');
    await page.click('#open .label'); // inside the open shadow root
    await page.focus('#nick');
    await page.keyboard.type('Robin');
    await page.click('#join'); // blur → change, then click, then submit

    const ours = await hogtailEvents(site, 8);
    const theirs = await posthogEvents(page);
    expect(ours.map((e) => e.type)).toEqual(['click', 'click', 'click', 'click', 'click', 'change', 'click', 'submit']);
    expect(ours).toEqual(theirs);

    const chains = ours.map((e) => e.chain);
    expect(chains[0]!.split(';').map((entry) => entry.split(':')[0])).toEqual([
      'span.amount',
      'span.price',
      'button.btn.btn-primary',
      'div.btn-group',
      'div.actions.row',
      'div.card-body',
      'section.card.pricing',
      'main.layout',
      'body',
    ]);
    expect(ours[2]!.chain).toContain('attr__title="Docs \\"quoted\\""');
    expect(ours[3]!.chain.startsWith('button.icon-btn:')).toBe(true); // the SVG click is the button's
    expect(ours[4]!.chain.split(';').map((entry) => entry.split(':')[0])).toEqual([
      'span.label',
      'button.inner',
      'div.shell',
      'fancy-card',
      'main.layout',
      'body',
    ]);
    const [first] = site.collector.events.filter((e) => e.event === '$autocapture');
    expect(first!.properties).toMatchObject({
      $event_type: 'click',
      $el_text: '$20',
      plan: 'pro',
      $lib: 'hogtail-web',
      $current_url: site.server.url + '/parity.html',
    });
    expect(JSON.stringify(site.collector.events)).not.toContain('Robin');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sends one $rageclick for three fast clicks on the same spot, even on dead text', async () => {
    const { site } = env;
    site.collector.clear();
    site.server.page('/rage.html', autocapturePage(site, PAGE));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(site.server.url + '/rage.html');
    const box = (await page.locator('#dead').boundingBox())!;
    await page.mouse.click(box.x + 20, box.y + 20, { clickCount: 3 });
    await page.click('#buy', { position: { x: 5, y: 5 } });
    const events = await hogtailEvents(site, 2);
    expect(events.map((e) => [e.event, e.chain.split(':')[0]])).toEqual([
      ['$rageclick', 'div'],
      ['$autocapture', 'button.btn.btn-primary'],
    ]);
    expect(events[0]!.chain.startsWith('div:attr__id="dead"')).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the server's autocapture_opt_out turns it off, also on the next page before decide answers; so does autocapture: false", async () => {
    const { site } = env;
    // A collector whose decide answer carries the switch (and can be made to hang).
    let stall: Promise<void> | undefined;
    const collector = await startRecordingCollector({
      async decide() {
        await stall;
        return { featureFlags: {}, autocapture_opt_out: true } as never;
      },
    });
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    const marker = (i: number) => page.evaluate((n) => (window as any).hogtail.capture('marker', { i: n }), i);
    try {
      const withConfig = (config: Record<string, unknown>) => autocapturePage({ ...site, collector }, PAGE, { config });
      site.server.page('/server-off.html', withConfig({}));
      await page.goto(site.server.url + '/server-off.html');
      await page.waitForFunction(() =>
        Object.keys(localStorage).some((key) => key.endsWith('|p') && localStorage.getItem(key)!.includes('"aco":true')),
      );
      await page.click('#buy');
      await marker(1);
      stall = new Promise(() => {}); // the next page never hears from decide: the stored switch holds
      await page.reload();
      await page.click('#buy');
      await marker(2);
      site.server.page('/client-off.html', withConfig({ autocapture: false, advanced_disable_decide: true }));
      await page.goto(site.server.url + '/client-off.html');
      await page.click('#buy');
      await marker(3);
      expect(await collector.waitForDistinct('marker', 3, 10_000)).toBe(3);
      expect(collector.events.filter((e) => e.event === '$autocapture')).toEqual([]);
    } finally {
      await collector.close();
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('without the switch the same page captures the click (the check above can fail)', async () => {
    const { site } = env;
    site.collector.clear();
    site.server.page('/server-on.html', autocapturePage(site, PAGE));
    const context = await env.browser.newContext();
    const { page } = await openPage(context);
    await page.goto(site.server.url + '/server-on.html');
    await page.click('#buy');
    expect((await hogtailEvents(site, 1)).map((e) => e.type)).toEqual(['click']);
    await context.close();
  });

  it('opt_out_capturing() stops autocapture events like any other', async () => {
    const { site } = env;
    site.collector.clear();
    site.server.page('/optout.html', autocapturePage(site, PAGE, { config: { rageclick: false } }));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(site.server.url + '/optout.html');
    await page.evaluate(() => (window as any).hogtail.opt_out_capturing());
    await page.click('#buy');
    await page.evaluate(() => (window as any).hogtail.opt_in_capturing());
    await page.click('#join');
    const events = await hogtailEvents(site, 2);
    expect(events.map((e) => [e.type, e.chain.split(':')[0]])).toEqual([
      ['click', 'button'],
      ['submit', 'form.signup'],
    ]);
    expect(await page.evaluate(() => (window as any).hogtail.stats().dropped.opted_out)).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
