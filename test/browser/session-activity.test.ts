// @vitest-environment happy-dom
// The session's last activity (state.ts): every event moves it, but writing the whole state (and
// posthog-js's cookie) at every click was most of a click's cost, so a change of it alone is
// written at most every 10 seconds; a new session at once.
import { beforeEach, describe, expect, it } from 'vitest';
import { createStateStore } from '../../src/browser/state/state';

const KEY = 'ht|phc_activity|p';
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const storedSession = () => (JSON.parse(localStorage.getItem(KEY)!) as { sid: [string, number, number] }).sid;

describe('session activity', () => {
  beforeEach(() => localStorage.clear());

  it('is written with a new session, then at most every 10 seconds', async () => {
    const states = createStateStore(localStorage, KEY, 'phc_activity', undefined);
    const start = Date.now();
    const id = states.session_(start);
    await tick();
    expect(storedSession()).toEqual([id, start, start]);
    for (let i = 1; i <= 9; i++) expect(states.session_(start + i * 1_000)).toBe(id);
    await tick();
    expect(storedSession()[1]).toBe(start);
    states.session_(start + 10_000);
    await tick();
    expect(storedSession()[1]).toBe(start + 10_000);
    // Anything else written writes the last activity with it.
    states.session_(start + 12_345);
    states.state_.props.plan = 'pro';
    states.save_();
    await tick();
    expect(storedSession()).toEqual([id, start + 12_345, start]);
  });

  it('a new session is written at once, whenever the last write was', async () => {
    const states = createStateStore(localStorage, KEY, 'phc_activity', undefined);
    const start = Date.now();
    const first = states.session_(start);
    await tick();
    states.session_(start + 5_000);
    // Past 24 hours a session ends even while active.
    states.state_.sid![2] = start - 24 * 60 * 60_000;
    const second = states.session_(start + 6_000);
    expect(second).not.toBe(first);
    await tick();
    expect(storedSession()).toEqual([second, start + 6_000, start + 6_000]);
  });
});
