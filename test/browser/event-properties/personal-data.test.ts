// @vitest-environment happy-dom
// posthog-js's `mask_personal_data_properties` (personal-data.ts): the same masked URL posthog-js
// writes, compared with posthog-js's own maskQueryParams on the same inputs, and the option rules.
import { maskQueryParams } from '@posthog/browser-common/utils/request-utils';
import { describe, expect, it, vi } from 'vitest';
import { maskParams, personalDataMask } from '../../../src/browser/capture/event-properties/personal-data';

const URLS = [
  'https://shop.test/a?gclid=abc&utm_source=x',
  'https://shop.test/a?utm_source=x&fbclid=f-1#gclid=in-the-hash',
  'https://shop.test/a?x=1?gclid=abc&y=2',
  'https://shop.test/a?gclid&member=42&member=43',
  'https://shop.test/a#top?gclid=abc',
  'https://shop.test/a',
  'https://shop.test/a?',
];

describe('masking personal data in URLs', () => {
  it.each(URLS)('%s: as posthog-js masks it', (url) => {
    const names = ['gclid', 'fbclid', 'member'];
    expect(maskParams(url, names)).toBe(maskQueryParams(url, names, '<masked>'));
  });

  it('off by default: no mask function, and custom_personal_data_properties alone warns that it does nothing', () => {
    const warn = vi.fn();
    expect(personalDataMask({}, warn)).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
    expect(personalDataMask({ custom_personal_data_properties: ['member'] }, warn)).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(
      'custom_personal_data_properties',
      expect.stringMatching(/no effect without mask_personal_data_properties/),
    );
  });

  it("on: posthog-js's click ids and the custom names are masked, the rest kept", () => {
    const mask = personalDataMask({ mask_personal_data_properties: true, custom_personal_data_properties: ['member'] }, vi.fn())!;
    expect(mask('https://shop.test/?utm_source=ads&msclkid=m&li_fat_id=l&member=1&keep=2')).toBe(
      'https://shop.test/?utm_source=ads&msclkid=<masked>&li_fat_id=<masked>&member=<masked>&keep=2',
    );
  });
});
