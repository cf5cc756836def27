// @vitest-environment happy-dom
// Which clicks are dead (src/extensions/dead-clicks/detector.ts), posthog-js's rule: nothing in
// time after the click and the absolute timeout passed; a DOM change, a scroll or a selection
// change soon enough makes it alive; links, ignored elements, modifier keys and repeats within a
// second are never judged.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createDeadClickDetector } from '../../../src/extensions/dead-clicks/detector';
import { deadClickSettings } from '../../../src/extensions/dead-clicks/settings';
import type { HogtailConfig } from '../../../src/browser/hogtail';

let reported: [string, Record<string, unknown>][];
const detector = () =>
  createDeadClickDetector(deadClickSettings({} as HogtailConfig), (candidate, timings) => reported.push([candidate.node.id, timings]));
const click = (id: string, init: MouseEventInit = {}) => {
  const event = new MouseEvent('click', { bubbles: true, ...init });
  Object.defineProperty(event, 'target', { value: document.getElementById(id) });
  return event;
};

beforeEach(() => {
  vi.useFakeTimers();
  reported = [];
  document.body.innerHTML =
    '<p id="inert">text</p><p id="other">more</p><a href="#x"><span id="in-link">go</span></a><div class="ph-no-deadclick"><b id="ignored">x</b></div>';
});
afterEach(() => vi.useRealTimers());

it('reports a click nothing reacted to once 1.1 × the mutation threshold has passed, with posthog-js’s timings', () => {
  const dead = detector();
  dead.click(click('inert'));
  vi.advanceTimersByTime(2000);
  expect(reported).toEqual([]);
  vi.advanceTimersByTime(1000);
  expect(reported.map(([id]) => id)).toEqual(['inert']);
  expect(reported[0]![1]).toMatchObject({
    $dead_click_absolute_timeout: true,
    $dead_click_mutation_timeout: false,
    $dead_click_scroll_timeout: false,
    $dead_click_selection_changed_timeout: false,
    $dead_click_visibility_changed_timeout: false,
    $dead_click_absolute_delay_ms: 3000,
  });
});

it('a DOM change, a scroll or a selection change soon after the click makes it alive', () => {
  const dead = detector();
  dead.click(click('inert'));
  vi.advanceTimersByTime(500);
  dead.mutated();
  dead.click(click('other'));
  vi.advanceTimersByTime(50);
  dead.scrolled();
  vi.advanceTimersByTime(4000);
  expect(reported).toEqual([]);
});

it('a scroll that comes too late makes it dead by the scroll timeout', () => {
  const dead = detector();
  dead.click(click('inert'));
  vi.advanceTimersByTime(300);
  dead.scrolled();
  vi.advanceTimersByTime(1000);
  expect(reported.map(([id, timings]) => [id, timings.$dead_click_scroll_timeout, timings.$dead_click_scroll_delay_ms])).toEqual([
    ['inert', true, 300],
  ]);
});

it('never judges links, ignored elements, clicks with a modifier key, or the same element again within a second', () => {
  const dead = detector();
  dead.click(click('in-link'));
  dead.click(click('ignored'));
  dead.click(click('other', { metaKey: true }));
  dead.click(click('inert'));
  dead.click(click('inert'));
  vi.advanceTimersByTime(4000);
  expect(reported.map(([id]) => id)).toEqual(['inert']);
});

it('a visibility or focus change around the click makes it alive', () => {
  const dead = detector();
  dead.click(click('inert'));
  vi.advanceTimersByTime(200);
  dead.liveness();
  vi.advanceTimersByTime(4000);
  expect(reported).toEqual([]);
});
