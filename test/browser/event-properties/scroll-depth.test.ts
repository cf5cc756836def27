// @vitest-environment happy-dom
// Scroll depth (scroll-depth.ts) from the layout the browser reports, as posthog-js computes it:
// offsets and viewport bottoms, last and deepest, as pixels and as fractions of the page. happy-dom
// has no layout, so the sizes are set here; test/e2e/event-properties.test.ts measures real pages.
import { beforeEach, describe, expect, it } from 'vitest';
import { trackScroll } from '../../../src/browser/capture/event-properties/scroll-depth';

const layout = (element: Element, scrollHeight: number, clientHeight: number, scrollTop = 0) => {
  for (const [name, value] of Object.entries({ scrollHeight, clientHeight, scrollTop }))
    Object.defineProperty(element, name, { value, configurable: true });
};
const scrollPage = (y: number) => {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  dispatchEvent(new Event('scroll'));
};
const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
const soon = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('scroll depth', () => {
  beforeEach(() => {
    layout(document.documentElement, 4000, 1000);
    scrollPage(0);
  });

  it('nothing before the first measurement; a new page is measured soon', async () => {
    const scroll = trackScroll(undefined);
    expect(scroll.properties()).toEqual({});
    scroll.reset();
    await soon();
    expect(scroll.properties()).toMatchObject({
      $prev_pageview_max_scroll: 0,
      $prev_pageview_max_content: 1000,
      $prev_pageview_max_content_percentage: 0.25,
    });
  });

  it('the deepest and the last offset, in pixels and as a fraction of what can be scrolled; content to the bottom of the viewport', async () => {
    const scroll = trackScroll(undefined);
    scroll.reset();
    scrollPage(1500);
    await frame();
    scrollPage(600);
    await frame();
    expect(scroll.properties()).toEqual({
      $prev_pageview_last_scroll: 600,
      $prev_pageview_last_scroll_percentage: 0.2,
      $prev_pageview_max_scroll: 1500,
      $prev_pageview_max_scroll_percentage: 0.5,
      $prev_pageview_last_content: 1600,
      $prev_pageview_last_content_percentage: 0.4,
      $prev_pageview_max_content: 2500,
      $prev_pageview_max_content_percentage: 0.625,
    });
  });

  it('a scroll not yet measured (its frame still to come) is taken when the properties are read', () => {
    const scroll = trackScroll(undefined);
    scrollPage(3000);
    expect(scroll.properties()).toMatchObject({ $prev_pageview_max_scroll: 3000, $prev_pageview_max_scroll_percentage: 1 });
  });

  it('a page that cannot scroll counts as read to the end', async () => {
    layout(document.documentElement, 800, 1000);
    const scroll = trackScroll(undefined);
    scroll.reset();
    await soon();
    expect(scroll.properties()).toMatchObject({ $prev_pageview_max_scroll_percentage: 1, $prev_pageview_max_content_percentage: 1 });
  });

  it('scroll_root_selector: the first element that matches is measured', () => {
    const root = document.createElement('main');
    root.id = 'app';
    document.body.append(root);
    layout(root, 2000, 500, 750);
    const scroll = trackScroll(['#missing', '#app']);
    root.dispatchEvent(new Event('scroll'));
    expect(scroll.properties()).toMatchObject({
      $prev_pageview_max_scroll: 750,
      $prev_pageview_max_scroll_percentage: 0.5,
      $prev_pageview_max_content: 1250,
    });
    root.remove();
  });
});
