// @vitest-environment happy-dom
// Reading a URL and a referrer as posthog-js reads them (campaign.ts): the names, nulls for what is
// absent, posthog-js's query rules, and its search-engine patterns in its order.
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_PARAMS, pageProperties, paramsIn, searchInfo } from '../../../src/browser/capture/event-properties/campaign';

describe('campaign parameters', () => {
  it("posthog-js's list: five UTM parameters, gad_source, mc_cid and nineteen click ids", () => {
    expect(CAMPAIGN_PARAMS).toHaveLength(26);
    expect(CAMPAIGN_PARAMS.slice(0, 7)).toEqual([
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'utm_content',
      'utm_term',
      'gad_source',
      'mc_cid',
    ]);
    expect(CAMPAIGN_PARAMS).toEqual(expect.arrayContaining(['gclid', 'fbclid', 'msclkid', 'li_fat_id', 'ttclid', 'twclid', '_kx']));
  });

  it('every name gets a value or null; the first occurrence wins; + is a space; an empty value is absent; the hash is not the query', () => {
    const url = 'https://shop.test/a?utm_source=news+letter&utm_source=second&utm_medium=&gclid=a%2Fb#utm_term=hash';
    expect(paramsIn(url, ['utm_source', 'utm_medium', 'gclid', 'utm_term', 'x'])).toEqual({
      utm_source: 'news letter',
      utm_medium: null,
      gclid: 'a/b',
      utm_term: null,
      x: null,
    });
    expect(paramsIn('https://shop.test/', ['utm_source'])).toEqual({ utm_source: null });
  });

  it("search engines: posthog-js's loose patterns in its order, and the words searched for (yahoo's p, the others' q)", () => {
    expect(searchInfo('https://www.google.com/search?q=red+shoes')).toEqual({ $search_engine: 'google', ph_keyword: 'red shoes' });
    expect(searchInfo('https://search.yahoo.com/search?p=boots')).toEqual({ $search_engine: 'yahoo', ph_keyword: 'boots' });
    expect(searchInfo('https://www.bing.com/')).toEqual({ $search_engine: 'bing' });
    expect(searchInfo('https://duckduckgo.com/?q=x')).toEqual({ $search_engine: 'duckduckgo', ph_keyword: 'x' });
    // Google is tried first, wherever it appears after the scheme.
    expect(searchInfo('https://google.com/?q=bing.com')).toEqual({ $search_engine: 'google', ph_keyword: 'bing.com' });
    expect(searchInfo('https://example.com/')).toEqual({});
    expect(searchInfo('$direct')).toEqual({});
  });

  it('a page as posthog-js describes one: referrer, its domain, URL, host, path, all 26 campaign parameters', () => {
    const props = pageProperties({ r: 'https://news.test/story', u: 'https://shop.test/sale?utm_campaign=spring&fbclid=f1' });
    expect(Object.keys(props)).toHaveLength(5 + 26);
    expect(props).toMatchObject({
      $referrer: 'https://news.test/story',
      $referring_domain: 'news.test',
      $current_url: 'https://shop.test/sale?utm_campaign=spring&fbclid=f1',
      $host: 'shop.test',
      $pathname: '/sale',
      utm_campaign: 'spring',
      fbclid: 'f1',
      utm_source: null,
    });
    expect(pageProperties({ r: '$direct', u: 'https://shop.test/' })).toMatchObject({ $referrer: '$direct', $referring_domain: '$direct' });
  });
});
