// Autocapture's privacy rules in real Chromium, with real typing and clicks: every secret typed or
// shown below is searched for in everything the page sent (request bodies, gzip undone), in what the
// collector received, and in localStorage (the durable queue). Then the allow- and ignore-lists.
import { describe, expect, it } from 'vitest';
import { autocapturePage, hogtailEvents, recordBodies } from './autocapture-page';
import { hasChromium, openPage } from './support/chromium';
import { useChromiumSite } from './support/site';

const TYPED = ['TypedText1', 'TypedPass2', 'TypedArea3', 'TypedEditable4', 'TypedUnderNoCapture5', 'TypedSensitive6'];
const SHOWN = [
  'PrefilledValue7',
  'HiddenValue8',
  'PlaceholderText9',
  'NoCaptureLabel10',
  'SensitiveLabel11',
  '4242 4242 4242 4242',
  '4242424242424242',
  '123-45-6789',
  'OptionSecret12',
  'AreaDefault13',
];

const PAGE = `
<form id="account" class="account" onsubmit="event.preventDefault()">
  <input type="text" id="name" name="display" value="PrefilledValue7" placeholder="PlaceholderText9">
  <input type="password" id="pass" name="pw">
  <input type="hidden" name="token" value="HiddenValue8">
  <textarea id="area" name="about">AreaDefault13</textarea>
  <select id="choice" name="choice"><option value="a">First</option><option value="OptionSecret12">OptionSecret12</option></select>
  <div id="editable" contenteditable="true" class="editor"></div>
  <div class="ph-no-capture"><input type="text" id="hidden-zone" name="zone"><button type="button" id="no-capture">NoCaptureLabel10</button></div>
  <div class="ph-sensitive"><input type="text" id="sensitive-input" name="note"><button type="button" id="sensitive">SensitiveLabel11</button></div>
  <button type="button" id="card">Pay 4242 4242 4242 4242</button>
  <a href="/pay?card=4242424242424242" id="card-link" onclick="event.preventDefault()">Card link</a>
  <button type="button" id="ssn">SSN 123-45-6789</button>
  <button type="button" id="order" data-ph-capture-attribute-order-id="A-17" data-ph-capture-attribute-tier="gold">Order</button>
  <button type="submit" id="save">Save</button>
</form>`;

describe.skipIf(!hasChromium)('autocapture privacy in Chromium', () => {
  const env = useChromiumSite();

  it('no typed text, field value, ph-no-capture element, ph-sensitive text, card number or SSN ever leaves the page', async () => {
    const { site } = env;
    site.collector.clear();
    site.server.page('/privacy.html', autocapturePage(site, PAGE, { config: { rageclick: false } }));
    const context = await env.browser.newContext();
    const { page, errors } = await openPage(context);
    const bodies = recordBodies(page);
    await page.goto(site.server.url + '/privacy.html');

    const typeInto = async (selector: string, text: string) => {
      await page.click(selector);
      await page.keyboard.press('End');
      await page.keyboard.type(text);
    };
    await typeInto('#name', TYPED[0]!);
    await typeInto('#pass', TYPED[1]!);
    await typeInto('#area', TYPED[2]!);
    await typeInto('#editable', TYPED[3]!);
    await typeInto('#hidden-zone', TYPED[4]!);
    await typeInto('#sensitive-input', TYPED[5]!);
    await page.selectOption('#choice', 'OptionSecret12');
    for (const id of ['no-capture', 'sensitive', 'card', 'ssn', 'order']) await page.click('#' + id);
    await page.click('#card-link');
    await page.click('#save');

    // Changes (each on leaving the field): name, area, select, then the input under ph-sensitive (the
    // event is kept, its text never read); clicks; the submit. Never the password or the ph-no-capture zone.
    const events = await hogtailEvents(site, 11);
    expect(events.map((e) => `${e.type} ${/attr__id="([^"]+)"/.exec(e.chain)?.[1]}`)).toEqual([
      'change name',
      'change area',
      'change choice',
      'change sensitive-input',
      'click sensitive',
      'click card',
      'click ssn',
      'click order',
      'click card-link',
      'click save',
      'submit account',
    ]);
    const order = site.collector.events.find((e) => e.properties.$elements_chain?.toString().includes('attr__id="order"'));
    expect(order!.properties).toMatchObject({ 'order-id': 'A-17', tier: 'gold', $el_text: 'Order' });

    await page.evaluate(() => (window as any).hogtail.flush());
    const everything = [
      ...bodies,
      JSON.stringify(site.collector.events),
      JSON.stringify(await page.evaluate(() => ({ ...localStorage }))),
    ].join('\n');
    for (const secret of [...TYPED, ...SHOWN]) expect(everything, secret).not.toContain(secret);
    expect(everything).not.toContain('4242'); // not even a part of the card number
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each([
    [
      'mask_all_text',
      { mask_all_text: true },
      (chain: string, text: unknown) => !chain.includes('text=') && text === undefined && chain.includes('attr__id'),
    ],
    [
      'mask_all_element_attributes',
      { mask_all_element_attributes: true },
      (chain: string, text: unknown) => !chain.includes('attr') && !chain.includes('.account') && text === 'Order',
    ],
    [
      'element_attribute_ignorelist',
      { autocapture: { element_attribute_ignorelist: ['id', 'class'] } },
      (chain: string) => !/attr__id|attr_id|attr__class|\.account/.test(chain) && chain.includes('attr__type'),
    ],
  ])('%s', async (_, config, check) => {
    const { site } = env;
    site.collector.clear();
    site.server.page('/masked.html', autocapturePage(site, PAGE, { config: { rageclick: false, ...config } }));
    const context = await env.browser.newContext();
    const { page } = await openPage(context);
    await page.goto(site.server.url + '/masked.html');
    await page.click('#order');
    const [event] = await hogtailEvents(site, 1);
    expect(event!.chain.startsWith('button')).toBe(true);
    expect(check(event!.chain, event!.text), event!.chain).toBe(true);
    await context.close();
  });

  it.each([
    ['url_allowlist elsewhere', { url_allowlist: ['^https://shop\\.example/'] }, []],
    ['url_allowlist here', { url_allowlist: ['/lists\\.html$'] }, ['click #order', 'change #name', 'submit #account']],
    ['url_ignorelist', { url_ignorelist: ['lists'] }, []],
    ['dom_event_allowlist', { dom_event_allowlist: ['change'] }, ['change #name']],
    ['element_allowlist', { element_allowlist: ['form'] }, ['click #order', 'change #name', 'submit #account']],
    ['element_allowlist a', { element_allowlist: ['a'] }, []],
    ['css_selector_allowlist', { css_selector_allowlist: ['[data-ph-capture-attribute-tier]'] }, ['click #order']],
    ['css_selector_ignorelist', { css_selector_ignorelist: ['#order', 'input'] }, ['submit #account']],
  ])('%s', async (_, autocapture, expected) => {
    const { site } = env;
    site.collector.clear();
    site.server.page('/lists.html', autocapturePage(site, PAGE, { config: { rageclick: false, autocapture } }));
    const context = await env.browser.newContext();
    const { page } = await openPage(context);
    await page.goto(site.server.url + '/lists.html');
    await page.click('#order');
    await typeIntoAndLeave(page);
    await page.evaluate(() => (window as any).hogtail.capture('done'));
    await site.collector.waitForEvents(1 + expected.length, 10_000);
    const got = site.collector.events
      .filter((e) => e.event === '$autocapture')
      .map((e) => `${e.properties.$event_type} #${/attr__id="([^"]+)"/.exec(e.properties.$elements_chain as string)![1]}`);
    expect(got).toEqual(expected);
    await context.close();
  });
});

async function typeIntoAndLeave(page: import('playwright-core').Page): Promise<void> {
  await page.focus('#name');
  await page.keyboard.type('x');
  await page.focus('#save'); // blur: change
  await page.evaluate(() => (document.getElementById('account') as HTMLFormElement).requestSubmit());
}
