// Autocapture under the second hardening pass (issue 27), with real clicks in Chromium on the script
// tag: card numbers in data-ph-capture-attribute-* values and written with Unicode spaces, the
// value of a checkbox or an option, a 1 MB attribute, attributes named like the SDK's own
// properties, and a <form> whose fields clobber the DOM properties autocapture reads.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { autocapturePage, hogtailEvents, recordBodies } from './autocapture-page';
import { hasChromium, openPage } from './support/chromium';
import { useChromiumSite, type Site } from './support/site';

/** The $autocapture events (all properties) once `count` arrived. */
async function autocaptured(site: Site, count: number) {
  await hogtailEvents(site, count);
  return site.collector.events.filter((e) => e.event === '$autocapture').map((e) => e.properties);
}

/** Everything the page sent, what the collector got and what the page stored, as one text. */
async function everything(page: Page, site: Site, bodies: string[]): Promise<string> {
  await page.evaluate(() => (window as any).hogtail.flush());
  return [...bodies, JSON.stringify(site.collector.events), JSON.stringify(await page.evaluate(() => ({ ...localStorage })))].join('\n');
}

describe.skipIf(!hasChromium)('autocapture hardening in Chromium', () => {
  const env = useChromiumSite();

  async function open(path: string, body: string, config: Record<string, unknown> = {}, posthog = false) {
    const { site } = env;
    site.collector.clear();
    site.server.page(path, autocapturePage(site, body, { posthog, config: { rageclick: false, ...config } }));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    const bodies = recordBodies(page);
    await page.goto(site.server.url + path);
    return { site, context, page, errors, bodies };
  }

  it('a card number in data-ph-capture-attribute-* is left out, as posthog-js leaves it out on the same page', async () => {
    const { site, context, page, errors, bodies } = await open(
      '/augment-card.html',
      `<button id="pay" data-ph-capture-attribute-card="4000056655665556" data-ph-capture-attribute-spaced="4000 0566 5566 5556" data-ph-capture-attribute-plan="pro">Pay</button>`,
      {},
      true,
    );
    await page.waitForFunction(() => (window as any).posthog?.__loaded && (window as any).hogtail);
    await page.click('#pay');
    const [ours] = await autocaptured(site, 1);
    const theirs = (await page.evaluate(() => (window as any).__ph as { event: string; properties: Record<string, unknown> }[])).find(
      (e) => e.event === '$autocapture',
    )!;
    expect(ours).toMatchObject({ plan: 'pro' });
    expect(ours).not.toHaveProperty('card');
    expect(ours).not.toHaveProperty('spaced');
    expect(theirs.properties).toMatchObject({ plan: 'pro' });
    expect(theirs.properties).not.toHaveProperty('card');
    expect(await everything(page, site, bodies)).not.toMatch(/4000 ?0566/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('card numbers written with non-breaking, narrow, thin or figure spaces never leave the page', async () => {
    const { site, context, page, errors, bodies } = await open(
      '/unicode-spaces.html',
      `<button id="nbsp">6011&nbsp;1111&nbsp;1111&nbsp;1117</button>
<button id="narrow">Card 6011&#8239;1111&#8239;1111&#8239;1117</button>
<button id="thin" title="6011&#8201;1111&#8201;1111&#8201;1117">Thin</button>
<button id="figure" aria-label="6011&#8199;1111&#8199;1111&#8199;1117">Figure</button>
<a id="link" href="#" onclick="event.preventDefault()">Pay <span>6011&nbsp;1111</span> <span>1111&nbsp;1117</span></a>`,
    );
    for (const id of ['nbsp', 'narrow', 'thin', 'figure', 'link']) await page.click('#' + id);
    const events = await autocaptured(site, 5);
    expect(events.map((e) => /attr__id="([^"]+)"/.exec(e.$elements_chain as string)?.[1])).toEqual([
      'nbsp',
      'narrow',
      'thin',
      'figure',
      'link',
    ]);
    const sent = await everything(page, site, bodies);
    expect(sent).not.toContain('6011');
    expect(sent).not.toContain('1117');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("no value of a checkbox or an option leaves the page; a submit button's label still does, as in posthog-js", async () => {
    const { site, context, page, errors, bodies } = await open(
      '/values.html',
      `<form onsubmit="event.preventDefault()">
  <label><input type="checkbox" id="news" name="news" value="ada@example.com"> News</label>
  <label><input type="radio" id="plan" name="plan" value="radio@example.com"> Plan</label>
  <select id="list" class="ph-capture" size="3" name="list"><option id="opt" value="opt-value@example.com">opt-text@example.com</option></select>
  <input type="submit" id="save" value="Save">
</form>`,
    );
    await page.click('#news');
    await page.click('#plan');
    await page.click('#opt');
    await page.click('#save');
    // change (checkbox), change (radio), click (option in a ph-capture list) and change (list), click and submit (save)
    const events = await autocaptured(site, 6);
    const sent = await everything(page, site, bodies);
    for (const value of ['ada@example.com', 'radio@example.com', 'opt-value@example.com', 'opt-text@example.com'])
      expect(sent, value).not.toContain(value);
    const save = events.find((e) => e.$event_type === 'click' && (e.$elements_chain as string).startsWith('input'));
    expect(save!.$elements_chain).toContain('attr__value="Save"');
    expect(events.find((e) => (e.$elements_chain as string).startsWith('input:'))?.$elements_chain ?? events[0]!.$elements_chain).toContain(
      'attr__name="news"',
    );
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a 1 MB attribute is cut to 1,024 characters before it is read: the click arrives and nothing past the cut leaves', async () => {
    const { site, context, page, errors, bodies } = await open(
      '/huge.html',
      `<button id="huge">Huge</button>
<script>
  // A million digits (the slowest text for a card scan), with a card number far past the cut.
  const digits = '1'.repeat(500000) + '4000056655665556' + '1'.repeat(500000);
  const huge = document.getElementById('huge');
  huge.setAttribute('data-digits', digits);
  huge.setAttribute('data-ph-capture-attribute-blob', digits);
</script>`,
    );
    await page.click('#huge');
    const [event] = await autocaptured(site, 1);
    const cut = '1'.repeat(1024) + '...';
    expect(event!.$elements_chain).toContain(`attr__data-digits="${cut}"`);
    expect(event!.blob).toBe(cut);
    const sent = await everything(page, site, bodies);
    expect(sent).not.toContain('4000056655665556');
    expect(sent).not.toContain('1'.repeat(1025));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('data-ph-capture-attribute-* never overrides a $-property, token or distinct_id', async () => {
    const { site, context, page, errors } = await open(
      '/override.html',
      `<button id="go" data-ph-capture-attribute-$session_id="evil-session" data-ph-capture-attribute-$current_url="evil-url"
  data-ph-capture-attribute-$elements_chain="evil-chain" data-ph-capture-attribute-$el_text="evil-text" data-ph-capture-attribute-token="evil-token"
  data-ph-capture-attribute-$set="evil-set" data-ph-capture-attribute-$process_person_profile="evil-ppp"
  data-ph-capture-attribute-distinct_id="evil-id" data-ph-capture-attribute-plan="pro">Go</button>`,
    );
    await page.click('#go');
    const [event] = await autocaptured(site, 1);
    const received = site.collector.events.find((e) => e.event === '$autocapture')!;
    expect(event).toMatchObject({ plan: 'pro', $el_text: 'Go', $current_url: site.server.url + '/override.html' });
    for (const key of [
      '$session_id',
      '$current_url',
      '$elements_chain',
      '$el_text',
      'token',
      '$set',
      '$process_person_profile',
      'distinct_id',
    ]) {
      expect(String(event![key]), key).not.toMatch(/^evil/);
    }
    expect(received.distinct_id).not.toBe('evil-id');
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each([
    ['mask_all_element_attributes', { mask_all_element_attributes: true }, undefined],
    ['element_attribute_ignorelist', { autocapture: { element_attribute_ignorelist: ['data-ph-capture-attribute-plan'] } }, 'gold'],
  ])('%s applies to data-ph-capture-attribute-*', async (_, config, tier) => {
    const { site, context, page, errors } = await open(
      '/augment-masked.html',
      `<button id="go" data-ph-capture-attribute-plan="pro" data-ph-capture-attribute-tier="gold">Go</button>`,
      config,
    );
    await page.click('#go');
    const [event] = await autocaptured(site, 1);
    expect(event).not.toHaveProperty('plan');
    expect(event!.tier).toBe(tier);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a form whose fields are named localName, parentNode, matches (and more DOM names) loses no click or submit', async () => {
    const fields = [
      'localName',
      'parentNode',
      'matches',
      'nodeType',
      'getAttribute',
      'getAttributeNames',
      'classList',
      'firstChild',
      'closest',
      'getRootNode',
      'namespaceURI',
      'previousElementSibling',
      'id',
      'type',
    ];
    const { site, context, page, errors } = await open(
      '/clobbered.html',
      `<div class="wrap"><form id="before" class="first">${fields.map((name) => `<input type="text" name="${name}">`).join('')}</form>
<form id="clobbered" class="signup" onsubmit="event.preventDefault()">Sign up
  ${fields.map((name) => `<input type="text" name="${name}">`).join('\n  ')}
  <button id="go" type="submit">Go</button>
</form></div>`,
    );
    // A real mouse click at the button: Playwright's own click() reads the clobbered form's properties itself.
    const box = await page.evaluate(() => document.getElementById('go')!.getBoundingClientRect().toJSON() as DOMRect);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const events = await autocaptured(site, 2);
    expect(events.map((e) => e.$event_type)).toEqual(['click', 'submit']);
    const entries = (events[0]!.$elements_chain as string).split(';').map((entry) => entry.split(':')[0]);
    expect(entries).toEqual(['button', 'form.signup', 'div.wrap', 'body']);
    expect(events[0]!.$elements_chain).toContain('attr__id="clobbered"');
    // The form before it counts as a sibling of the same tag.
    expect(events[0]!.$elements_chain).toMatch(/form\.signup:[^;]*nth-child="2"nth-of-type="2"text="Sign up"/);
    expect((events[1]!.$elements_chain as string).startsWith('form.signup:')).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
  it('a document whose images are named host or getRootNode (document.host is then an <img>): a click still arrives', async () => {
    const { site, context, page, errors } = await open(
      '/named-images.html',
      `<img name="host" alt=""><img name="getRootNode" alt=""><form name="closest"></form><button id="go" class="ph-capture">Go</button>`,
    );
    await page.click('#go', { timeout: 5_000 });
    const events = await autocaptured(site, 1);
    expect(events.map((e) => e.$el_text)).toEqual(['Go']);
    expect(errors).toEqual([]);
    await context.close();
  }, 20_000);
});
