// @vitest-environment happy-dom
// What an autocaptured element becomes: the chain, $el_text and extra properties, and every privacy
// rule at the level of one element. (Parity with posthog-js is checked in Chromium, in
// test/e2e/autocapture.test.ts: posthog-js reads attributes in a way happy-dom does not support.)
import { beforeEach, describe as group, expect, it } from 'vitest';
import { describe, elementPath, type DescribeSettings } from '../../src/browser/features/autocapture/describe';

const plain: DescribeSettings = { maskText: false, maskAttributes: false, ignoredAttributes: [] };
const props = (selector: string, type = 'click', settings: DescribeSettings = plain) =>
  describe(elementPath(document.querySelector(selector)!), type, settings, location.host);
const chainOf = (selector: string, type = 'click', settings: DescribeSettings = plain) => props(selector, type, settings).$elements_chain as string;

const NESTED = `
<main id="app" class="layout">
  <section class="card pricing" data-plan="pro">
    <div class="card-body">
      <div class="actions row">
        <div class="btn-group">
          <span class="hint">Choose</span>
          <button id="buy" class="btn btn-primary" type="button" data-ph-capture-attribute-plan="pro" aria-label="Buy the pro plan">
            Buy <span class="price">now <span class="amount">$20</span></span>
          </button>
        </div>
      </div>
    </div>
  </section>
  <nav><a class="nav" href="/docs">Docs</a><a class="out" href="https://elsewhere.example/x"><span>Away</span></a></nav>
  <form id="signup" class="f" action="/join">Join us
    <input type="text" name="email" class="field" value="prefilled@example.com" placeholder="you@example.com">
    <input type="password" name="pw">
    <select name="plan"><option>free</option><option selected>pro</option></select>
    <textarea name="bio">typed bio</textarea>
    <input type="submit" value="Send">
  </form>
  <button id="icon"><svg viewBox="0 0 10 10"><path d="M0 0h10v10z"></path></svg> Close</button>
  <button id="secret" class="ph-sensitive">Account 1234</button>
  <button id="card">Pay 4111 1111 1111 1111</button>
</main>`;

group('autocapture element description', () => {
  beforeEach(() => {
    document.body.innerHTML = NESTED;
  });

  it('a click on a span nested in a button: the span first, up to body, with text, classes, ids and positions', () => {
    expect(props('.amount')).toEqual({
      $event_type: 'click',
      $ce_version: 1,
      $el_text: '$20',
      plan: 'pro',
      $elements_chain: [
        'span.amount:attr__class="amount"nth-child="1"nth-of-type="1"text="$20"',
        'span.price:attr__class="price"nth-child="1"nth-of-type="1"',
        'button.btn.btn-primary:attr__aria-label="Buy the pro plan"attr__class="btn btn-primary"attr__data-ph-capture-attribute-plan="pro"attr__id="buy"attr__type="button"attr_id="buy"nth-child="2"nth-of-type="1"text="Buy now $20"',
        'div.btn-group:attr__class="btn-group"nth-child="1"nth-of-type="1"',
        'div.actions.row:attr__class="actions row"nth-child="1"nth-of-type="1"',
        'div.card-body:attr__class="card-body"nth-child="1"nth-of-type="1"',
        'section.card.pricing:attr__class="card pricing"attr__data-plan="pro"nth-child="1"nth-of-type="1"',
        'main.layout:attr__class="layout"attr__id="app"attr_id="app"nth-child="1"nth-of-type="1"',
        'body:nth-child="2"nth-of-type="1"',
      ].join(';'),
    });
  });

  it('a span inside a link carries the link\'s href, and an external one $external_click_url', () => {
    const external = props('a.out span');
    expect(external.$external_click_url).toBe('https://elsewhere.example/x');
    expect((external.$elements_chain as string).split(';')[0]).toBe('span:attr__href="https://elsewhere.example/x"href="https://elsewhere.example/x"nth-child="1"nth-of-type="1"text="Away"');
    expect(props('a.nav').$external_click_url).toBeUndefined();
    expect(props('a.nav', 'change').$external_click_url).toBeUndefined();
  });

  it('an SVG path inside a button is the button\'s click', () => {
    expect(chainOf('#icon path').split(';')[0]).toBe('button:attr__id="icon"attr_id="icon"nth-child="4"nth-of-type="1"text="Close"');
  });

  it.each([
    ['input', 'change', 'input.field:attr__class="field"attr__name="email"nth-child="1"nth-of-type="1"'],
    ['select', 'change', 'select:attr__name="plan"nth-child="3"nth-of-type="1"'],
    ['textarea', 'change', 'textarea:attr__name="bio"nth-child="4"nth-of-type="1"'],
    ['form', 'submit', 'form.f:attr__action="/join"attr__class="f"attr__id="signup"attr_id="signup"nth-child="3"nth-of-type="1"text="Join us"'],
  ])('%s %s: name, id, class only, never a value or typed text', (selector, type, first) => {
    const all = props(selector, type);
    expect((all.$elements_chain as string).split(';')[0]).toBe(first);
    const text = JSON.stringify(all);
    for (const secret of ['prefilled@example.com', 'you@example.com', 'typed bio', 'free']) expect(text).not.toContain(secret);
  });

  it('ph-sensitive: no text, attributes kept', () => {
    const all = props('#secret');
    expect(all.$el_text).toBeUndefined();
    expect(all.$elements_chain).toMatch(/^button\.ph-sensitive:attr__class="ph-sensitive"attr__id="secret"attr_id="secret"nth-child="\d+"nth-of-type="\d+";/);
  });

  it('mask_all_text, mask_all_element_attributes, element_attribute_ignorelist', () => {
    const noText = props('.amount', 'click', { ...plain, maskText: true });
    expect(noText.$el_text).toBeUndefined();
    expect(noText.$elements_chain).not.toMatch(/text=|now|\$20/);
    const noAttributes = chainOf('.amount', 'click', { ...plain, maskAttributes: true });
    expect(noAttributes).not.toMatch(/attr|\.btn|\.amount/);
    expect(noAttributes.split(';')[2]).toBe('button:nth-child="2"nth-of-type="1"text="Buy now $20"');
    const ignored = props('a.out span', 'click', { ...plain, ignoredAttributes: ['class', 'href', 'aria-label'] });
    expect(JSON.stringify(ignored)).not.toMatch(/elsewhere|aria-label|attr__class/);
  });

  it('leaves out a card number even when spaces split it (posthog-js checks word by word)', () => {
    const all = props('#card');
    expect(JSON.stringify(all)).not.toContain('4111');
    expect(all.$el_text).toBeUndefined();
  });

  it('leaves out text and attributes shaped like a US SSN', () => {
    document.body.innerHTML = '<div><button title="ssn 078-05-1120" data-ok="fine">Mine is 078-05-1120</button></div>';
    const all = props('button');
    expect(JSON.stringify(all)).not.toContain('078-05-1120');
    expect(all.$elements_chain).toContain('attr__data-ok="fine"');
  });

  it('class names one space apart, whatever whitespace the page used; a secret-looking name (card-num) hides text with punctuation in it too', () => {
    document.body.innerHTML = '<div><button class="  zeta   alpha\tbeta\n">Go</button><button name="card-num" class="pay">Pay 12</button></div>';
    expect(chainOf('button.zeta').split(';')[0]).toBe('button.alpha.beta.zeta:attr__class="zeta alpha beta"nth-child="1"nth-of-type="1"text="Go"');
    const secret = props('button.pay');
    expect(secret.$el_text).toBeUndefined();
    expect(JSON.stringify(secret)).not.toContain('Pay 12');
  });

  it('walks at most 15 ancestors, and through a shadow root to its host', () => {
    document.body.innerHTML = '<div id="deep"></div><my-widget id="host"></my-widget>';
    let node = document.querySelector('#deep')!;
    for (let i = 0; i < 30; i++) node = node.appendChild(document.createElement('div'));
    expect(elementPath(node)).toHaveLength(16);
    const root = document.querySelector('#host')!.attachShadow({ mode: 'open' });
    root.innerHTML = '<div class="inner"><button>Shadow</button></div>';
    const path = elementPath(root.querySelector('button')!).map((el) => el.tagName.toLowerCase());
    expect(path).toEqual(['button', 'div', 'my-widget', 'body']);
  });

  it('leaves out attribute names the chain cannot carry (Alpine @click, :class)', () => {
    document.body.innerHTML = '<div x-data="{}"><button class="b" @click="open = true" :class="x" x-on:keyup="y">Go</button></div>';
    expect(chainOf('button')).toBe('button.b:attr__class="b"nth-child="1"nth-of-type="1"text="Go";div:attr__x-data="{}"nth-child="1"nth-of-type="1";body:nth-child="2"nth-of-type="1"');
  });
});
