// @vitest-environment happy-dom
// ExtensionContext.provide: an extension that arrives after init() (the surveys file) makes the
// client's survey methods its own; listeners the app registered on the stubs before it came
// (onSurveysLoaded at startup, as posthog-js/react's hooks do) are handed over, unsubscribes keep
// working, and a provided method that throws is reported instead of thrown into the page.
import { afterEach, describe, expect, it, vi } from 'vitest';
// Both from the entry, so `npm run test:bundle` runs this against the minified client too.
import { createHogtail, registerExtension } from '../../src/browser';
import type { HogtailError } from '../../src/core/errors';
import { fakeFetch } from './helpers';

describe('ExtensionContext.provide', () => {
  afterEach(() => vi.restoreAllMocks());

  it('replaces the stubs, hands the waiting listeners over, and guards what it provides', () => {
    fakeFetch();
    vi.spyOn(navigator, 'sendBeacon').mockReturnValue(true);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const client = createHogtail();
    const errors: string[] = [];
    client.on('error', (error: HogtailError) => errors.push(error.message));
    client.init('phc_provide', { api_host: 'https://collector.test', capture_pageview: false });

    const heard: string[] = [];
    const kept = client.onSurveysLoaded((surveys) => heard.push('kept:' + surveys.length));
    const dropped = client.onSurveysLoaded(() => heard.push('dropped'));
    dropped();
    expect(heard).toEqual([]);

    const unsubscribed: number[] = [];
    registerExtension({
      name: 'provider',
      setup(context) {
        context.provide({
          onSurveysLoaded(callback: (surveys: unknown[]) => void) {
            callback([1, 2]);
            return () => unsubscribed.push(1);
          },
          getSurveys() {
            throw new Error('broken on purpose');
          },
        });
      },
    });
    expect(heard).toEqual(['kept:2']);
    kept();
    expect(unsubscribed).toEqual([1]);

    expect(() => client.getSurveys(() => {})).not.toThrow();
    expect(errors).toEqual(['extension: getSurveys() failed (Error: broken on purpose); the other features go on']);
    // A listener registration waits for its product: it never warned.
    expect(warn.mock.calls.filter(([line]) => String(line).includes('onSurveysLoaded'))).toEqual([]);
  });
});
