// @vitest-environment happy-dom
// What an autocaptured element becomes: the chain, $el_text and extra properties, and every privacy
// rule at the level of one element. (Parity with posthog-js is checked in Chromium, in
// test/e2e/autocapture.test.ts: posthog-js reads attributes in a way happy-dom does not support.)
import { beforeEach, describe as group, expect, it } from 'vitest';
import { describe, elementPath, type DescribeSettings } from '../../src/browser/features/autocapture/describe';
import { looksSecret } from '../../src/browser/features/autocapture/privacy';

const plain: DescribeSettings = { maskText_: false, maskAttributes_: false, ignoredAttributes_: [] };
const props = (selector: string, type = 'click', settings: DescribeSettings = plain) =>
  describe(elementPath(document.querySelector(selector)!), type, settings, location.host);
const chainOf = (selector: string, type = 'click', settings: DescribeSettings = plain) =>
  props(selector, type, settings).$elements_chain as string;

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

  it("a span inside a link carries the link's href, and an external one $external_click_url", () => {
    const external = props('a.out span');
    expect(external.$external_click_url).toBe('https://elsewhere.example/x');
    expect((external.$elements_chain as string).split(';')[0]).toBe(
      'span:attr__href="https://elsewhere.example/x"href="https://elsewhere.example/x"nth-child="1"nth-of-type="1"text="Away"',
    );
    expect(props('a.nav').$external_click_url).toBeUndefined();
    expect(props('a.nav', 'change').$external_click_url).toBeUndefined();
  });

  it("an SVG path inside a button is the button's click", () => {
    expect(chainOf('#icon path').split(';')[0]).toBe('button:attr__id="icon"attr_id="icon"nth-child="4"nth-of-type="1"text="Close"');
  });

  it.each([
    ['input', 'change', 'input.field:attr__class="field"attr__name="email"nth-child="1"nth-of-type="1"'],
    ['select', 'change', 'select:attr__name="plan"nth-child="3"nth-of-type="1"'],
    ['textarea', 'change', 'textarea:attr__name="bio"nth-child="4"nth-of-type="1"'],
    [
      'form',
      'submit',
      'form.f:attr__action="/join"attr__class="f"attr__id="signup"attr_id="signup"nth-child="3"nth-of-type="1"text="Join us"',
    ],
  ])('%s %s: name, id, class only, never a value or typed text', (selector, type, first) => {
    const all = props(selector, type);
    expect((all.$elements_chain as string).split(';')[0]).toBe(first);
    const text = JSON.stringify(all);
    for (const secret of ['prefilled@example.com', 'you@example.com', 'typed bio', 'free']) expect(text).not.toContain(secret);
  });

  it('ph-sensitive: no text, attributes kept', () => {
    const all = props('#secret');
    expect(all.$el_text).toBeUndefined();
    expect(all.$elements_chain).toMatch(
      /^button\.ph-sensitive:attr__class="ph-sensitive"attr__id="secret"attr_id="secret"nth-child="\d+"nth-of-type="\d+";/,
    );
  });

  it('mask_all_text, mask_all_element_attributes, element_attribute_ignorelist', () => {
    const noText = props('.amount', 'click', { ...plain, maskText_: true });
    expect(noText.$el_text).toBeUndefined();
    expect(noText.$elements_chain).not.toMatch(/text=|now|\$20/);
    const noAttributes = chainOf('.amount', 'click', { ...plain, maskAttributes_: true });
    expect(noAttributes).not.toMatch(/attr|\.btn|\.amount/);
    expect(noAttributes.split(';')[2]).toBe('button:nth-child="2"nth-of-type="1"text="Buy now $20"');
    const ignored = props('a.out span', 'click', { ...plain, ignoredAttributes_: ['class', 'href', 'aria-label'] });
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
    document.body.innerHTML =
      '<div><button class="  zeta   alpha\tbeta\n">Go</button><button name="card-num" class="pay">Pay 12</button></div>';
    expect(chainOf('button.zeta').split(';')[0]).toBe(
      'button.alpha.beta.zeta:attr__class="zeta alpha beta"nth-child="1"nth-of-type="1"text="Go"',
    );
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
    expect(chainOf('button')).toBe(
      'button.b:attr__class="b"nth-child="1"nth-of-type="1"text="Go";div:attr__x-data="{}"nth-child="1"nth-of-type="1";body:nth-child="2"nth-of-type="1"',
    );
  });
});

group('autocapture: the second hardening pass (issue 27)', () => {
  it.each([
    ['no-break spaces', '6011\u00a01111\u00a01111\u00a01117'],
    ['narrow no-break spaces', '6011\u202f1111\u202f1111\u202f1117'],
    ['thin spaces', '6011\u20091111\u20091111\u20091117'],
    ['figure spaces', '6011\u20071111\u20071111\u20071117'],
    ['ideographic spaces', '6011\u30001111\u30001111\u30001117'],
    ['tabs and runs of spaces', '6011\t1111  1111   1117'],
    ['en dashes', '6011\u20131111\u20131111\u20131117'],
    ['non-breaking hyphens', '6011\u20111111\u20111111\u20111117'],
    ['dots', '6011.1111.1111.1117'],
    ['zero-width spaces', '6011\u200b1111\u200b1111\u200b1117'],
    ['soft hyphens', '6011\u00ad1111\u00ad1111\u00ad1117'],
    ['URL-escaped spaces', '/pay?card=6011%201111%C2%A01111+1117'],
  ])('a card number written with %s looks secret', (_, text) => {
    expect(looksSecret(text)).toBe(true);
  });

  it('an SSN with spaces of any kind between its groups looks secret; a phone number or a price does not', () => {
    expect(looksSecret('SSN 078 05 1120')).toBe(true);
    expect(looksSecret('SSN 078\u00a005\u00a01120')).toBe(true);
    expect(looksSecret('Call 555 123 4567')).toBe(false);
    expect(looksSecret('Total 1,234.56 for 12 items')).toBe(false);
  });

  it('text written with no-break spaces: no $el_text and no text in the chain', () => {
    document.body.innerHTML =
      '<div><button id="nbsp">6011&nbsp;1111&nbsp;1111&nbsp;1117</button><label>Card 6011&nbsp;1111&nbsp;1111&nbsp;1117<button id="in">Go</button></label></div>';
    for (const selector of ['#nbsp', '#in']) {
      const all = props(selector);
      expect(JSON.stringify(all), selector).not.toContain('6011');
    }
  });

  it('a card number in a data-ph-capture-attribute-* value is left out (property and chain); other values stay', () => {
    document.body.innerHTML =
      '<div><button data-ph-capture-attribute-card="4000056655665556" data-ph-capture-attribute-nbsp="4000&nbsp;0566&nbsp;5566&nbsp;5556" data-ph-capture-attribute-plan="pro">Pay</button></div>';
    const all = props('button');
    expect(all).toMatchObject({ plan: 'pro' });
    expect(all).not.toHaveProperty('card');
    expect(all).not.toHaveProperty('nbsp');
    expect(JSON.stringify(all)).not.toContain('4000');
  });

  it('data-ph-capture-attribute-*: never a $ property, token or distinct_id; any other name, constructor included; masked and ignored as attributes are', () => {
    document.body.innerHTML = `<div><button id="b" data-ph-capture-attribute-$session_id="evil" data-ph-capture-attribute-$elements_chain="evil"
      data-ph-capture-attribute-$el_text="evil" data-ph-capture-attribute-token="evil" data-ph-capture-attribute-distinct_id="evil"
      data-ph-capture-attribute-constructor="c" data-ph-capture-attribute-plan="pro">Go</button></div>`;
    const all = props('#b');
    expect(all.$el_text).toBe('Go');
    expect((all.$elements_chain as string).startsWith('button:')).toBe(true);
    expect(Object.keys(all).filter((key) => key === 'token' || key === 'distinct_id' || key === '$session_id')).toEqual([]);
    expect(all).toMatchObject({ plan: 'pro', constructor: 'c' });
    expect(props('#b', 'click', { ...plain, maskAttributes_: true })).not.toHaveProperty('plan');
    const ignored = props('#b', 'click', { ...plain, ignoredAttributes_: ['data-ph-capture-attribute-plan'] });
    expect(ignored).not.toHaveProperty('plan');
    expect(ignored).toMatchObject({ constructor: 'c' });
  });

  it("no input's value attribute but a button's: checkbox, radio, hidden; an option is a field", () => {
    document.body.innerHTML = `<form>
      <input type="checkbox" id="box" name="news" value="box@example.com">
      <input type="radio" id="radio" name="plan" value="radio@example.com">
      <input type="hidden" id="hidden" name="t" value="hidden@example.com">
      <select id="list" size="2"><option id="opt" value="opt-value@example.com" class="o">opt-text@example.com</option></select>
      <input type="submit" id="save" value="Save"><input type="button" id="other" value="Other"><input type="reset" id="reset" value="Reset">
    </form>`;
    for (const selector of ['#box', '#radio', '#hidden', '#opt']) {
      const text = JSON.stringify([props(selector), props(selector, 'change')]);
      expect(text, selector).not.toMatch(/@example\.com/);
    }
    expect(chainOf('#box', 'change').split(';')[0]).toBe(
      'input:attr__id="box"attr__name="news"attr__type="checkbox"attr_id="box"nth-child="1"nth-of-type="1"',
    );
    expect(chainOf('#opt').split(';')[0]).toBe('option.o:attr__class="o"attr__id="opt"attr_id="opt"nth-child="1"nth-of-type="1"');
    for (const [selector, label] of [
      ['#save', 'Save'],
      ['#other', 'Other'],
      ['#reset', 'Reset'],
    ])
      expect(chainOf(selector!)).toContain(`attr__value="${label}"`);
  });

  it('values are cut to 1,024 characters before they are checked: a card past the cut does not hide the start, one across it hides the value', () => {
    const far = '1'.repeat(5_000) + '4000056655665556';
    const across = 'a'.repeat(1_015) + '4000 0566 5566 5556';
    document.body.innerHTML = '<div><a id="a">Go</a></div>';
    const link = document.querySelector('#a')!;
    link.setAttribute('href', '/x?' + far);
    link.setAttribute('data-far', far);
    link.setAttribute('data-across', across);
    link.setAttribute('data-ph-capture-attribute-far', far);
    link.setAttribute('class', 'c '.repeat(2_000));
    const all = props('#a');
    const chain = all.$elements_chain as string;
    expect(chain).toContain(`attr__data-far="${'1'.repeat(1_024)}..."`);
    expect(chain).not.toContain('data-across');
    expect(all.far).toBe('1'.repeat(1_024) + '...');
    expect(chain).toContain(`attr__href="/x?${'1'.repeat(1_021)}..."`);
    expect(chain).toContain('attr__class="c c c');
    expect(chain.length).toBeLessThan(10_000);
    expect(JSON.stringify(all)).not.toContain('4000');
  });

  it('a text node is read only as far as it can be shown: a card number far into it leaves the start', () => {
    document.body.innerHTML = '<div><button id="t"></button></div>';
    document.querySelector('#t')!.textContent = 'Label ' + 'x'.repeat(1_000_000) + ' 4000 0566 5566 5556';
    const all = props('#t');
    expect(all.$el_text).toBe(('Label ' + 'x'.repeat(300)).slice(0, 255));
  });
});
