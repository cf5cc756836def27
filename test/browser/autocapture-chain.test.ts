// The $elements_chain format: written as posthog-js writes it for ordinary values, and read back
// intact by PostHog's server rules (autocapture-chain-parser.ts) for values that posthog-js's
// format breaks: quotes, backslashes, line breaks, `;` and `="` inside values.
import { describe, expect, it } from 'vitest';
import { getElementsChainString } from '@posthog/browser-common/utils/autocapture-utils';
import { elementsChain, type ChainElement } from '../../src/browser/features/autocapture/chain';
import { parseChain, unescape } from './autocapture-chain-parser';

const element = (overrides: Partial<ChainElement>): ChainElement => ({
  tag: 'div',
  classes: [],
  nthChild: 1,
  nthOfType: 1,
  attributes: {},
  ...overrides,
});

/** posthog-js's element record for the same element (its `$elements` entry). */
const posthogRecord = (el: ChainElement) => ({
  tag_name: el.tag,
  $el_text: el.text,
  nth_child: el.nthChild,
  nth_of_type: el.nthOfType,
  ...el.attributes,
});

describe('$elements_chain', () => {
  it('writes tag, sorted classes and sorted attributes exactly as posthog-js does', () => {
    const elements = [
      element({
        tag: 'button',
        classes: ['primary', 'btn', 'Big'],
        nthChild: 2,
        nthOfType: 1,
        text: 'Save changes',
        id: 'save',
        attributes: { attr__class: 'primary btn Big', attr__id: 'save', 'attr__data-test': 'save-btn', 'attr__aria-label': 'Save' },
      }),
      element({
        tag: 'a',
        classes: ['nav'],
        nthChild: 3,
        nthOfType: 2,
        href: '/settings?tab=1',
        attributes: { attr__class: 'nav', attr__href: '/settings?tab=1' },
      }),
      element({ tag: 'body', nthChild: 2 }),
    ];
    const chain = elementsChain(elements);
    expect(chain).toBe(
      'button.Big.btn.primary:attr__aria-label="Save"attr__class="primary btn Big"attr__data-test="save-btn"attr__id="save"attr_id="save"nth-child="2"nth-of-type="1"text="Save changes";' +
        'a.nav:attr__class="nav"attr__href="/settings?tab=1"href="/settings?tab=1"nth-child="3"nth-of-type="2";' +
        'body:nth-child="2"nth-of-type="1"',
    );
    expect(chain).toBe(getElementsChainString(elements.map(posthogRecord)));
    expect(parseChain(chain)).toEqual([
      {
        tag_name: 'button',
        attr_class: ['Big', 'btn', 'primary'],
        text: 'Save changes',
        href: null,
        attr_id: 'save',
        nth_child: 2,
        nth_of_type: 1,
        attributes: { attr__class: 'primary btn Big', attr__id: 'save', 'attr__data-test': 'save-btn', 'attr__aria-label': 'Save' },
      },
      {
        tag_name: 'a',
        attr_class: ['nav'],
        text: null,
        href: '/settings?tab=1',
        attr_id: null,
        nth_child: 3,
        nth_of_type: 2,
        attributes: { attr__class: 'nav', attr__href: '/settings?tab=1' },
      },
      { tag_name: 'body', attr_class: null, text: null, href: null, attr_id: null, nth_child: 2, nth_of_type: 1, attributes: {} },
    ]);
  });

  it('escapes quotes as posthog-js does: \\" in the value, the server keeps the escape', () => {
    const chain = elementsChain([element({ tag: 'button', text: 'Say "hi"', attributes: { attr__title: 'a "b"' } })]);
    expect(chain).toBe('button:attr__title="a \\"b\\""nth-child="1"nth-of-type="1"text="Say \\"hi\\""');
    expect(chain).toBe(
      getElementsChainString([posthogRecord(element({ tag: 'button', text: 'Say "hi"', attributes: { attr__title: 'a "b"' } }))]),
    );
    const [parsed] = parseChain(chain);
    expect(parsed!.text).toBe('Say \\"hi\\"');
    expect(parsed!.nth_child).toBe(1);
  });

  const tricky = [
    'ends with a backslash \\',
    'back\\slash before a quote \\"',
    'line one\nline two\r\nline three',
    'semi;colons; and spaces',
    'looks like="an attribute"nth-child="9"',
    ':x="y" colon first',
    'tab\tand unicode ✓ 🐗 and U+2028 \u2028 here',
    '\\\\"\\n literal backslash-n',
    '',
  ];

  it.each(tricky)('round-trips %j in text and in attributes through the server rules', (value) => {
    const elements = [
      element({
        tag: 'span',
        classes: ['icon'],
        text: value || undefined,
        attributes: { attr__class: 'icon', attr__title: value, 'attr__data-x': value },
      }),
      element({
        tag: 'button',
        nthChild: 4,
        nthOfType: 2,
        text: value || undefined,
        id: value || undefined,
        attributes: { attr__id: value, 'attr__aria-label': value },
      }),
      element({ tag: 'div', classes: ['wrap'], nthChild: 1, attributes: { attr__class: 'wrap' } }),
    ];
    const parsed = parseChain(elementsChain(elements));
    expect(parsed).toHaveLength(3);
    parsed.forEach((got, i) => {
      const want = elements[i]!;
      expect(got.tag_name).toBe(want.tag);
      expect(got.attr_class).toEqual(want.classes.length > 0 ? want.classes : null);
      expect(got.nth_child).toBe(want.nthChild);
      expect(got.nth_of_type).toBe(want.nthOfType);
      expect(got.text === null ? undefined : unescape(got.text)).toBe(want.text);
      expect(got.attr_id === null ? undefined : unescape(got.attr_id)).toBe(want.id);
      expect(Object.fromEntries(Object.entries(got.attributes).map(([key, raw]) => [key, unescape(raw)]))).toEqual(want.attributes);
    });
  });

  it("keeps elements apart where posthog-js's escaping makes the server misread them", () => {
    for (const value of ['ends with a backslash \\', 'two\nlines']) {
      const elements = [
        element({ tag: 'button', text: value, nthChild: 5, attributes: { attr__title: value } }),
        element({ tag: 'form', nthChild: 2 }),
      ];
      const ours = parseChain(elementsChain(elements));
      const theirs = parseChain(getElementsChainString(elements.map(posthogRecord)));
      expect(ours.map((e) => [e.tag_name, e.nth_child])).toEqual([
        ['button', 5],
        ['form', 2],
      ]);
      expect(unescape(ours[0]!.text!)).toBe(value);
      // posthog-js's chain: the server loses the button's position (and more) or the form.
      expect(theirs.map((e) => [e.tag_name, e.nth_child])).not.toEqual([
        ['button', 5],
        ['form', 2],
      ]);
    }
  });

  it('drops " and ; from class names (the server would split the element at a ;)', () => {
    const chain = elementsChain([element({ tag: 'div', classes: ['a"b', 'c;d'] }), element({ tag: 'body' })]);
    expect(chain).toBe('div.ab.cd:nth-child="1"nth-of-type="1";body:nth-child="1"nth-of-type="1"');
    expect(parseChain(chain).map((e) => e.tag_name)).toEqual(['div', 'body']);
  });
});
