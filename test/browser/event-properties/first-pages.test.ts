// What events and `$set_once` say of the visitor's first page and of the session's
// (initial-person.ts, session-entry.ts), named as posthog-js names them.
import { describe, expect, it } from 'vitest';
import { initialProperties } from '../../../src/browser/event-properties/initial-person';
import { sessionEntryProperties } from '../../../src/browser/event-properties/session-entry';

const page = { r: 'https://www.google.com/search?q=shoes', u: 'https://shop.test/sale?utm_source=ads&gclid=g1' };

describe('the first page of a visitor and of a session', () => {
  it('$initial_*: every property of the page, the absent campaign parameters as null, the search engine', () => {
    const props = initialProperties(page);
    expect(props).toMatchObject({
      $initial_referrer: page.r,
      $initial_referring_domain: 'www.google.com',
      $initial_current_url: page.u,
      $initial_host: 'shop.test',
      $initial_pathname: '/sale',
      $initial_utm_source: 'ads',
      $initial_gclid: 'g1',
      $initial_utm_medium: null,
      $initial_search_engine: 'google',
      $initial_ph_keyword: 'shoes',
    });
    expect(Object.keys(props)).toHaveLength(5 + 26 + 2);
  });

  it('$session_entry_*: only what has a value, the URL as $session_entry_url', () => {
    expect(sessionEntryProperties(page)).toEqual({
      $session_entry_referrer: page.r,
      $session_entry_referring_domain: 'www.google.com',
      $session_entry_url: page.u,
      $session_entry_host: 'shop.test',
      $session_entry_pathname: '/sale',
      $session_entry_utm_source: 'ads',
      $session_entry_gclid: 'g1',
      $session_entry_search_engine: 'google',
      $session_entry_ph_keyword: 'shoes',
    });
  });
});
