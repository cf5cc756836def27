// What the live page shows of web vitals and heatmaps, gathered from events as they arrive
// (src/devserver/dev/insights.ts): each metric's 75th percentile and rating per page (no query,
// no fragment), the clicks and the outline per page URL, and nothing from malformed properties.
import { expect, it } from 'vitest';
import { createInsights } from '../../src/devserver/dev/insights';
import type { ReceivedEvent } from '../../src/devserver/ingest/types';

const event = (name: string, properties: Record<string, unknown>) => ({ event: name, properties }) as unknown as ReceivedEvent;

it('gives each page its metrics at the 75th percentile with Google’s rating', () => {
  const insights = createInsights();
  for (const lcp of [1000, 2000, 3000, 5000]) {
    insights.observe(event('$web_vitals', { $current_url: `https://app.test/a?x=${lcp}#top`, $web_vitals_LCP_value: lcp }));
  }
  insights.observe(
    event('$web_vitals', { $current_url: 'https://app.test/a', $web_vitals_CLS_value: 0.05, $web_vitals_INP_value: 'slow' }),
  );
  insights.observe(event('$web_vitals', { $current_url: 'not a url', $web_vitals_LCP_value: 1 }));
  expect(insights.summary().webVitals).toEqual([
    {
      page: 'https://app.test/a',
      metrics: {
        LCP: { p75: 3000, rating: 'needs-improvement', samples: 4 },
        CLS: { p75: 0.05, rating: 'good', samples: 1 },
      },
    },
  ]);
});

it('keeps each page URL’s clicks and the latest outline, and forgets everything when cleared', () => {
  const insights = createInsights();
  const outline = { url: 'https://app.test/b?q=1', width: 800, height: 2000, boxes: [[10, 20, 100, 30], ['bad']] };
  insights.observe(
    event('$$heatmap', {
      $heatmap_data: {
        'https://app.test/b?q=1': [
          { x: 15, y: 320, target_fixed: false, type: 'click' },
          { x: 15, y: 320, target_fixed: false, type: 'rageclick' },
          { x: 700, y: 5, target_fixed: true, type: 'click' },
          { x: 'no', y: 1, type: 'click' },
        ],
      },
      $heatmap_outline: outline,
    }),
  );
  expect(insights.summary().heatmaps).toEqual([
    {
      page: 'https://app.test/b',
      clicksTotal: 2,
      clicks: [
        { x: 15, y: 320, fixed: false, type: 'click' },
        { x: 700, y: 5, fixed: true, type: 'click' },
      ],
      outline: { width: 800, height: 2000, boxes: [[10, 20, 100, 30]] },
    },
  ]);
  insights.reset();
  expect(insights.summary()).toEqual({ webVitals: [], heatmaps: [] });
});
