// @vitest-environment happy-dom
// $window_id (window-id.ts): kept by a reload of the tab, new in a duplicated tab and for a new session.
import { beforeEach, describe, expect, it } from 'vitest';
import { createWindowId } from '../../../src/browser/event-properties/window-id';

const KEY = 'ht|phc_window|w';
const open = () => createWindowId(() => sessionStorage, KEY);

describe('$window_id', () => {
  beforeEach(() => sessionStorage.clear());

  it('a reload (the page left first) keeps the id', () => {
    const first = open().id();
    dispatchEvent(new Event('pagehide'));
    expect(open().id()).toBe(first);
  });

  it('a duplicated tab (a copy of the storage while the page is open) gets its own', () => {
    const first = open().id();
    expect(open().id()).not.toBe(first);
  });

  it('a new session gets a new id, which a reload keeps', () => {
    const window = open();
    const first = window.id();
    window.renew();
    expect(window.id()).not.toBe(first);
    dispatchEvent(new Event('pagehide'));
    expect(open().id()).toBe(window.id());
  });

  it('without storage, an id for the page', () => {
    expect(createWindowId(() => undefined, KEY).id()).toMatch(/^[0-9a-f-]{36}$/);
  });
});
