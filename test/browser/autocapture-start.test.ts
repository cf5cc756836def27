// @vitest-environment happy-dom
// startAutocapture on its own (happy-dom events): which DOM events become $autocapture, the
// configuration lists, the server's switch, warnings for options that cannot work, and that nothing
// it does throws into the page. Real clicks and typing are in test/e2e/autocapture*.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { startAutocapture, type AutocaptureOptions } from '../../src/browser/features/autocapture';

const PAGE = `
<div class="page">
  <button id="plain">Plain</button>
  <div id="dead">Dead text</div>
  <div role="button" id="role"><i id="in-role">x</i></div>
  <div class="ph-capture" id="marked">Marked</div>
  <div data-ph-capture id="data-marked">Data marked</div>
  <input type="submit" id="submit" value="Go"><input type="checkbox" id="check"><input type="text" id="text"><input type="password" id="pw">
  <form id="form"><button id="in-form">Send</button></form>
  <div class="ph-no-capture"><button id="private">Private</button></div>
  <div class="ph-no-autocapture"><button id="ignored">Ignored</button></div>
  <button id="rage">Rage</button>
</div>`;

let stops: (() => void)[] = [];
afterEach(() => {
  stops.forEach((stop) => stop());
  stops = [];
});

function start(config: AutocaptureOptions = {}, enabled = () => true) {
  document.body.innerHTML = PAGE;
  const events: { event: string; properties: Record<string, unknown> }[] = [];
  const warnings: string[] = [];
  stops.push(
    startAutocapture({
      window,
      initOptions: config,
      capture: (event, properties) => events.push({ event, properties }),
      isEnabled: enabled,
      warn: (...parts) => warnings.push(parts.map(String).join('')),
    }),
  );
  return { events, warnings };
}

const click = (id: string, x = 10, y = 10, detail = 1) =>
  document.getElementById(id)!.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: x, clientY: y, detail }));
const fire = (id: string, type: string) => document.getElementById(id)!.dispatchEvent(new Event(type, { bubbles: true }));
const firstTag = (properties: Record<string, unknown>) => (properties.$elements_chain as string).split(/[.:]/)[0];

describe('startAutocapture', () => {
  it('captures clicks on interactive elements and inside them, not on dead text', () => {
    const { events } = start({ rageclick: false });
    for (const id of ['plain', 'dead', 'in-role', 'marked', 'data-marked', 'submit', 'check', 'text']) click(id);
    expect(events.map((e) => [e.event, e.properties.$event_type, firstTag(e.properties)])).toEqual([
      ['$autocapture', 'click', 'button'],
      ['$autocapture', 'click', 'i'],
      ['$autocapture', 'click', 'div'],
      ['$autocapture', 'click', 'div'],
      ['$autocapture', 'click', 'input'],
      ['$autocapture', 'change', 'input'], // clicking the checkbox changes it
    ]);
  });

  it('captures change of fields and submit of forms, never a password field', () => {
    const { events } = start();
    for (const id of ['check', 'text', 'pw']) fire(id, 'change');
    fire('form', 'submit');
    fire('plain', 'change');
    fire('in-form', 'submit');
    expect(events.map((e) => [e.properties.$event_type, firstTag(e.properties)])).toEqual([
      ['change', 'input'],
      ['change', 'input'],
      ['submit', 'form'],
    ]);
  });

  it('ph-no-capture and the default ignore list drop the event', () => {
    const { events } = start();
    click('private');
    click('ignored');
    expect(events).toEqual([]);
  });

  it('$rageclick on the third click within 30 px and 1 s, once per series, even on dead text', () => {
    const { events } = start();
    click('dead', 10, 10);
    click('dead', 20, 20);
    click('dead', 25, 5);
    click('dead', 12, 12);
    expect(events.map((e) => e.event)).toEqual(['$rageclick']);
    click('rage', 10, 10);
    click('rage', 200, 200); // outside the radius: a new series
    click('rage', 200, 200);
    expect(events.map((e) => e.event)).toEqual(['$rageclick', '$autocapture', '$autocapture', '$autocapture']);
  });

  it('clicks from the keyboard (detail 0) are never a rage click', () => {
    const { events } = start();
    for (let i = 0; i < 5; i++) click('dead', 0, 0, 0);
    expect(events).toEqual([]);
  });

  it('rageclick: false turns $rageclick off', () => {
    const { events } = start({ rageclick: false });
    for (let i = 0; i < 3; i++) click('dead');
    expect(events).toEqual([]);
  });

  it.each([
    [{ dom_event_allowlist: ['change' as const] }, ['change']],
    [{ element_allowlist: ['form' as const] }, ['submit']],
    [{ css_selector_allowlist: ['#check'] }, ['change']],
    [{ element_allowlist: [] }, []],
    [{ css_selector_ignorelist: ['#plain'] }, ['change', 'submit']],
    [{ url_allowlist: ['nowhere\\.example'] }, []],
    [{ url_ignorelist: [/./] }, []],
    [{ url_allowlist: [location.hostname] }, ['click', 'change', 'submit']],
  ])('%j captures only %j', (autocapture, types) => {
    const { events, warnings } = start({ autocapture, rageclick: false });
    click('plain');
    fire('check', 'change');
    fire('form', 'submit');
    expect(events.map((e) => e.properties.$event_type)).toEqual(types);
    expect(warnings).toEqual([]);
  });

  it('captures nothing while isEnabled() says no (the server turned autocapture off)', () => {
    let enabled = false;
    const { events } = start({}, () => enabled);
    click('plain');
    enabled = true;
    click('plain');
    expect(events).toHaveLength(1);
  });

  it('warns once per option it cannot use, by name, and keeps the rest', () => {
    const { events, warnings } = start({
      autocapture: {
        css_selector_allowlist: ['#plain', '[[bad'],
        url_allowlist: ['('],
        capture_copied_text: true,
        dom_event_allowlist: 'click',
      } as never,
      rageclick: { content_ignorelist: true, click_count: -1, toString: [] } as never,
    });
    click('plain');
    expect(warnings).toEqual([
      'autocapture.css_selector_allowlist: [[bad is invalid; ignored',
      'autocapture.url_allowlist: ( is invalid; ignored',
      'option "autocapture.capture_copied_text" is not supported by hogtail (or misspelt); it has no effect',
      'autocapture.dom_event_allowlist: click is invalid; ignored',
      'option "rageclick.content_ignorelist" is not supported by hogtail (or misspelt); it has no effect',
      'rageclick.click_count: -1 is invalid; ignored',
      'option "rageclick.toString" is not supported by hogtail (or misspelt); it has no effect',
    ]);
    // url_allowlist is left with no pattern at all, so nothing matches it.
    expect(events).toEqual([]);
  });

  it('never throws into the page: a failing capture is reported', () => {
    document.body.innerHTML = PAGE;
    const warnings: string[] = [];
    stops.push(
      startAutocapture({
        window,
        initOptions: {},
        capture: () => {
          throw new Error('boom');
        },
        isEnabled: () => true,
        warn: (...parts) => warnings.push(parts.map(String).join('')),
      }),
    );
    expect(() => click('plain')).not.toThrow();
    expect(warnings).toEqual(['autocapture failed on a click event: Error: boom']);
  });

  it('the stop function removes the listeners', () => {
    const { events } = start();
    stops.pop()!();
    click('plain');
    expect(events).toEqual([]);
  });
});
