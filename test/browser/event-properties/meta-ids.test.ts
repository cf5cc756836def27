// @vitest-environment happy-dom
// Meta's $fbc / $fbp (meta-ids.ts), posthog-js's rules on their own: where each value comes from,
// when the pixel's cookie wins over the URL's click id or the kept one, which shapes count, and
// when a value is to be sent.
import { afterEach, describe, expect, it } from 'vitest';
import { markMetaIdsSent, refreshMetaIds, unsentMetaIds } from '../../../src/browser/capture/event-properties/meta-ids';
import { freshState, type PersistedState } from '../../../src/browser/state/state';

const setCookie = (name: string, value: string) => (document.cookie = `${name}=${value}; path=/`);
afterEach(() => {
  for (const name of ['_fbc', '_fbp']) document.cookie = `${name}=; path=/; max-age=0`;
});

describe("Meta's ids", () => {
  it('the URL click id becomes fb.1.<now>.<fbclid>; the same click again keeps its first time', () => {
    const state: PersistedState = freshState();
    expect(refreshMetaIds(state, 'Click_1-a', 1_000)).toBe(true);
    expect(state.fb).toEqual({ $fbc: ['fb.1.1000.Click_1-a', false] });
    expect(refreshMetaIds(state, 'Click_1-a', 2_000)).toBe(false);
    expect(state.fb!.$fbc![0]).toBe('fb.1.1000.Click_1-a');
    refreshMetaIds(state, 'Click_2', 3_000);
    expect(state.fb!.$fbc![0]).toBe('fb.1.3000.Click_2');
  });

  it("the pixel's _fbc wins for the URL's click, for none, or when newer than the kept one; not for another click or an older one", () => {
    const state: PersistedState = freshState();
    setCookie('_fbc', 'fb.1.500.Click_1');
    refreshMetaIds(state, 'Click_1', 1_000);
    expect(state.fb!.$fbc![0]).toBe('fb.1.500.Click_1');
    refreshMetaIds(state, 'Other', 2_000);
    expect(state.fb!.$fbc![0]).toBe('fb.1.2000.Other');
    setCookie('_fbc', 'fb.1.1500.Older');
    refreshMetaIds(state, undefined, 3_000);
    expect(state.fb!.$fbc![0]).toBe('fb.1.2000.Other');
    setCookie('_fbc', 'fb.1.2500.Newer');
    refreshMetaIds(state, undefined, 4_000);
    expect(state.fb!.$fbc![0]).toBe('fb.1.2500.Newer');
  });

  it('$fbp only from the cookie; values of another shape (a masked click id among them) are no ids', () => {
    const state: PersistedState = freshState();
    setCookie('_fbp', 'fb.1.1700000000000.123');
    setCookie('_fbc', 'not-meta');
    refreshMetaIds(state, '<masked>', 1_000);
    expect(state.fb).toEqual({ $fbp: ['fb.1.1700000000000.123', false] });
    setCookie('_fbp', 'fb.1.x.123');
    expect(refreshMetaIds(state, undefined, 2_000)).toBe(false);
  });

  it('unsent ids are sent unless the caller sets them; an event that still carries one marks it sent', () => {
    const state: PersistedState = freshState();
    state.fb = { $fbc: ['fb.1.1.a', false], $fbp: ['fb.1.1.2', false] };
    expect(unsentMetaIds(state, [{ $fbc: 'mine' }, undefined])).toEqual({ $fbp: 'fb.1.1.2' });
    expect(unsentMetaIds(state, [undefined, 'not an object'])).toEqual({ $fbc: 'fb.1.1.a', $fbp: 'fb.1.1.2' });
    markMetaIdsSent(state, '{"properties":{"$set":{"$fbp":"fb.1.1.2"}}}');
    expect(unsentMetaIds(state, [])).toEqual({ $fbc: 'fb.1.1.a' });
    markMetaIdsSent(state, '{"properties":{"$set":{"$fbc":"fb.1.1.a"}}}');
    expect(unsentMetaIds(state, [])).toBeUndefined();
  });
});
