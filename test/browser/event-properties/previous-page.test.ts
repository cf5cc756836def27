// @vitest-environment happy-dom
// The page-view chain (previous-page.ts): $pageview_id on every event, and the page view that ended
// on the next $pageview or $pageleave, as posthog-js links them.
import { describe, expect, it } from 'vitest';
import { createPageChain } from '../../../src/browser/event-properties/previous-page';
import type { ScrollDepth } from '../../../src/browser/event-properties/scroll-depth';

const fakeScroll = (): ScrollDepth & { resets: number } => ({
  resets: 0,
  reset() {
    this.resets++;
  },
  properties: () => ({ $prev_pageview_max_scroll: 100 }),
});

describe('the page-view chain', () => {
  it('each $pageview names itself and ends the one before; other events name the current one; $pageleave ends it', () => {
    const scroll = fakeScroll();
    const chain = createPageChain(scroll);
    history.replaceState({}, '', '/home');
    expect(chain.properties('$pageview', 'pv-1', 1_000, 's')).toEqual({ $pageview_id: 'pv-1' });
    expect(chain.properties('click', undefined, 1_500, 's')).toEqual({ $pageview_id: 'pv-1' });
    history.replaceState({}, '', '/next');
    expect(chain.properties('$pageview', 'pv-2', 3_500, 's')).toMatchObject({
      $pageview_id: 'pv-2',
      $prev_pageview_id: 'pv-1',
      $prev_pageview_pathname: '/home',
      $prev_pageview_duration: 2.5,
      $prev_pageview_max_scroll: 100,
    });
    expect(chain.properties('$pageleave', undefined, 4_000, 's')).toEqual({
      $pageview_id: 'pv-2',
      $prev_pageview_id: 'pv-2',
      $prev_pageview_pathname: '/next',
      $prev_pageview_duration: 0.5,
      $prev_pageview_max_scroll: 100,
    });
    expect(chain.id()).toBe('pv-2');
    expect(scroll.resets).toBe(2);
  });

  it('a new session starts a new chain; without a scroll tracker, no depths', () => {
    const chain = createPageChain(undefined);
    chain.properties('$pageview', 'pv-1', 0, 'session-1');
    expect(chain.properties('$pageleave', undefined, 10, 'session-2')).toEqual({ $pageview_id: undefined });
    chain.properties('$pageview', 'pv-2', 20, 'session-2');
    expect(Object.keys(chain.properties('$pageleave', undefined, 30, 'session-2')).some((key) => key.includes('scroll'))).toBe(false);
  });

  it('reading without a uuid (calculateEventProperties) moves nothing', () => {
    const chain = createPageChain(undefined);
    chain.properties('$pageview', undefined, 0, 's');
    expect(chain.id()).toBeUndefined();
  });
});
