// @vitest-environment happy-dom
// The tab's attribution (attribution.ts) as posthog-js keeps it in sessionStorage: the campaign of
// the last URL that had one, the tab's first referrer, the options that turn each off.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAttribution } from '../../../src/browser/capture/event-properties/attribution';

const KEY = 'ht|phc_attr|a';
const setReferrer = (value: string) => Object.defineProperty(document, 'referrer', { value, configurable: true });
const open = (options = {}) => createAttribution(() => sessionStorage, KEY, options);

describe('attribution kept per tab', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => setReferrer(''));

  it('a landing URL with a campaign: every parameter, absent ones null; a later URL without one keeps it; a new campaign replaces all of it', () => {
    setReferrer('https://news.test/story');
    const attribution = open();
    const landing = attribution('https://shop.test/?utm_source=mail&utm_campaign=spring&gclid=g1');
    expect(landing).toMatchObject({ utm_source: 'mail', utm_campaign: 'spring', gclid: 'g1', utm_medium: null, fbclid: null });
    expect(landing).toMatchObject({ $referrer: 'https://news.test/story', $referring_domain: 'news.test' });
    expect(attribution('https://shop.test/cart')).toEqual(landing);
    const next = attribution('https://shop.test/?utm_source=ads');
    expect(next).toMatchObject({ utm_source: 'ads', utm_campaign: null, gclid: null });
  });

  it('the next page of the tab reads what the first kept; its own referrer does not replace the first', () => {
    setReferrer('https://news.test/story');
    open()('https://shop.test/?utm_source=mail');
    setReferrer('https://shop.test/?utm_source=mail');
    const second = open()('https://shop.test/checkout');
    expect(second).toMatchObject({ utm_source: 'mail', $referrer: 'https://news.test/story' });
  });

  it('no campaign and no referrer: $direct, and no campaign parameters at all (as posthog-js)', () => {
    const props = open()('https://shop.test/');
    expect(props).toEqual({ $referrer: '$direct', $referring_domain: '$direct' });
  });

  it('save_campaign_params: false, save_referrer: false, custom_campaign_params', () => {
    setReferrer('https://news.test/');
    expect(open({ save_campaign_params: false })('https://shop.test/?utm_source=x')).toEqual({
      $referrer: 'https://news.test/',
      $referring_domain: 'news.test',
    });
    sessionStorage.clear();
    expect(open({ save_referrer: false })('https://shop.test/')).toEqual({});
    sessionStorage.clear();
    expect(open({ custom_campaign_params: ['ref'] })('https://shop.test/?ref=friend')).toMatchObject({ ref: 'friend', utm_source: null });
  });

  it('a search engine referral names the engine and the words', () => {
    setReferrer('https://www.google.com/search?q=red+shoes');
    expect(open()('https://shop.test/')).toMatchObject({ $search_engine: 'google', ph_keyword: 'red shoes' });
  });

  it('written once per URL, not per event; no storage means memory only', () => {
    const writes: string[] = [];
    const store = { getItem: () => null, setItem: (_key: string, value: string) => void writes.push(value) } as unknown as Storage;
    const attribution = createAttribution(() => store, KEY, {});
    attribution('https://shop.test/?utm_source=a');
    attribution('https://shop.test/?utm_source=a');
    attribution('https://shop.test/b');
    expect(writes).toHaveLength(2);
    expect(createAttribution(() => undefined, KEY, {})('https://shop.test/?utm_source=a')).toMatchObject({ utm_source: 'a' });
  });
});
