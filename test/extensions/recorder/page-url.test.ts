// The app's network mask function masks the recorded page's own URL too (issue #24), as posthog-js
// does: rrweb's meta event carries the masked `href`, and is left out when the function returns
// nothing or throws; without a mask function, and for other events, nothing changes.
import { describe, expect, it } from 'vitest';
import { maskMetaEvent, pageUrlMask } from '../../../src/extensions/recorder/network/page-url';

const meta = { type: 4, data: { href: 'https://app.example.com/reset?token=abc', width: 800, height: 600 }, timestamp: 1 };
const stripQuery = (url: string) => url.split('?')[0];

describe('the page URL in the recording', () => {
  it('goes through maskCapturedNetworkRequestFn, or the older maskNetworkRequestFn', () => {
    const newer = pageUrlMask({
      session_recording: { maskCapturedNetworkRequestFn: (r: { name: string }) => ({ ...r, name: stripQuery(r.name) }) },
    });
    expect(maskMetaEvent(meta, newer)).toEqual({ ...meta, data: { ...meta.data, href: 'https://app.example.com/reset' } });
    const older = pageUrlMask({ session_recording: { maskNetworkRequestFn: (r: { url: string }) => ({ url: stripQuery(r.url) }) } });
    expect((maskMetaEvent(meta, older)?.data as { href: string }).href).toBe('https://app.example.com/reset');
  });

  it('leaves the meta event out when the function returns nothing or throws', () => {
    expect(maskMetaEvent(meta, pageUrlMask({ session_recording: { maskCapturedNetworkRequestFn: () => null } }))).toBeUndefined();
    const throwing = pageUrlMask({
      session_recording: {
        maskNetworkRequestFn: () => {
          throw new Error('bug');
        },
      },
    });
    expect(maskMetaEvent(meta, throwing)).toBeUndefined();
  });

  it('changes nothing without a mask function, nor other events', () => {
    expect(pageUrlMask({})).toBeUndefined();
    expect(maskMetaEvent(meta, undefined)).toBe(meta);
    const mutation = { type: 3, data: { source: 0 }, timestamp: 2 };
    expect(maskMetaEvent(mutation, () => undefined)).toBe(mutation);
  });
});
