// @vitest-environment happy-dom
// The browser's time zone and language (event-properties/locale.ts): the time zone from Temporal
// where the browser has it (no locale data to load on the page's first event), else from Intl.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localeProperties } from '../../../src/browser/capture/event-properties/locale';

describe('localeProperties', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("reads the time zone from Temporal when the browser has it, without building Intl's date formatter", () => {
    const formatter = vi.spyOn(Intl, 'DateTimeFormat');
    vi.stubGlobal('Temporal', { Now: { timeZoneId: () => 'Pacific/Chatham' } });
    expect(localeProperties().$timezone).toBe('Pacific/Chatham');
    expect(formatter).not.toHaveBeenCalled();
    formatter.mockRestore();
  });

  it('reads it from Intl where there is no Temporal (as posthog-js does), or where it throws', () => {
    const intl = Intl.DateTimeFormat().resolvedOptions().timeZone;
    vi.stubGlobal('Temporal', undefined);
    expect(localeProperties().$timezone).toBe(intl);
    vi.stubGlobal('Temporal', {
      Now: {
        timeZoneId: () => {
          throw new RangeError('no time zone');
        },
      },
    });
    expect(localeProperties().$timezone).toBe(intl);
    expect(localeProperties()).toMatchObject({ $browser_language: navigator.language, $timezone_offset: new Date().getTimezoneOffset() });
  });
});
