// The recorder's gates (issue #24): sampling decided from the session id alone, the linked flag
// with its variant, URL and event triggers with their match type, the blocklist and the minimum
// duration, and startSessionRecording()'s overrides; and the remote config read as the server
// sends it (numbers as strings, bad patterns).
import { describe, expect, it } from 'vitest';
import type { Hogtail } from '../../../src/browser/index';
import { createGates, readOverride, sampledIn, type Overrides } from '../../../src/extensions/recorder/gates';
import { createMutationGuard } from '../../../src/extensions/recorder/mutation-guard';
import { readSettings } from '../../../src/extensions/recorder/settings';

const client = (flags: Record<string, string | boolean> = {}) => ({ getFeatureFlag: (key: string) => flags[key] }) as unknown as Hogtail;
const gatesFor = (
  recording: Record<string, unknown>,
  flags?: Record<string, string | boolean>,
  overrides: Overrides = {},
  flagsKnown = true,
) =>
  createGates(
    client(flags),
    () => [readSettings({ sessionRecording: recording }, {}), overrides],
    () => flagsKnown,
    memoryMarks(),
  );

/** Session marks kept in memory (session-marks.ts keeps them in localStorage). */
function memoryMarks() {
  const marked = new Set<string>();
  return {
    has: (kind: string, sessionId: string) => marked.has(kind + sessionId),
    mark: (kind: string, sessionId: string) => void marked.add(kind + sessionId),
  };
}

describe('recorder gates', () => {
  it('sampling is a pure function of the session id (sampling.test.ts: the same as posthog-js)', () => {
    const ids = Array.from({ length: 2_000 }, (_, i) => `0190f0e0-0000-7000-8000-${String(i).padStart(12, '0')}`);
    const kept = ids.filter((id) => sampledIn(id, 0.25)).length;
    const gates = gatesFor({ sampleRate: '0.25' });
    expect(ids.filter((id) => gates.verdict(id, 'https://a.test/', Infinity) === 'send').length).toBe(kept);
    expect(gatesFor({ sampleRate: 0 }).verdict(ids[0]!, 'https://a.test/', Infinity)).toBe('off');
    expect(gatesFor({ sampleRate: 0 }, {}, readOverride(true)).verdict(ids[0]!, 'https://a.test/', Infinity)).toBe('send');
  });

  it('linked flag: waits for flags, off when missing, off or another variant, on when it matches', () => {
    expect(gatesFor({ linkedFlag: 'f' }, {}, {}, false).verdict('s', 'u', Infinity)).toBe('wait');
    expect(gatesFor({ linkedFlag: 'f' }, {}).verdict('s', 'u', Infinity)).toBe('off');
    expect(gatesFor({ linkedFlag: 'f' }, { f: false }).verdict('s', 'u', Infinity)).toBe('off');
    expect(gatesFor({ linkedFlag: 'f' }, { f: true }).verdict('s', 'u', Infinity)).toBe('send');
    expect(gatesFor({ linkedFlag: { flag: 'f', variant: 'test' } }, { f: 'control' }).verdict('s', 'u', Infinity)).toBe('off');
    expect(gatesFor({ linkedFlag: { flag: 'f', variant: 'test' } }, { f: 'test' }).verdict('s', 'u', Infinity)).toBe('send');
    expect(gatesFor({ linkedFlag: 'f' }, { f: false }, { linked_flag: true }).verdict('s', 'u', Infinity)).toBe('send');
  });

  it('triggers: a URL or an event starts the session, any or all; the blocklist pauses; the minimum duration waits', () => {
    const urls = {
      urlTriggers: [
        { url: '/checkout', matching: 'regex' },
        { url: '(', matching: 'regex' },
      ],
    };
    const any = gatesFor({ ...urls, eventTriggers: ['signed up'] });
    expect(any.verdict('s1', 'https://a.test/home', Infinity)).toBe('wait');
    any.eventCaptured('signed up', 's1');
    expect(any.verdict('s1', 'https://a.test/home', Infinity)).toBe('send');
    expect(any.verdict('s2', 'https://a.test/checkout', Infinity)).toBe('send');
    expect(any.verdict('s2', 'https://a.test/home', Infinity)).toBe('send'); // the session stays triggered

    const all = gatesFor({ ...urls, eventTriggers: ['signed up'], triggerMatchType: 'all' });
    expect(all.verdict('s3', 'https://a.test/checkout', Infinity)).toBe('wait');
    all.eventCaptured('signed up', 's3');
    expect(all.verdict('s3', 'https://a.test/home', Infinity)).toBe('send');
    expect(gatesFor(urls, {}, { url_trigger: true }).verdict('s4', 'https://a.test/home', Infinity)).toBe('send');

    const blocked = gatesFor({ urlBlocklist: [{ url: '/admin' }] });
    expect(blocked.paused('https://a.test/admin/users')).toBe(true);
    expect(blocked.verdict('s5', 'https://a.test/admin', Infinity)).toBe('paused');
    expect(gatesFor({ minimumDurationMilliseconds: 5_000 }).verdict('s6', 'u', 4_999)).toBe('wait');
    expect(gatesFor({ minimumDurationMilliseconds: 5_000 }).verdict('s6', 'u', 5_000)).toBe('send');
  });
});

describe('recorder settings', () => {
  it('privacy defaults; passwords masked whatever the options; the init options win; what it cannot do is named', () => {
    const defaults = readSettings({ sessionRecording: {} }, {});
    expect(defaults.rrweb).toMatchObject({ maskAllInputs: true, blockClass: 'ph-no-capture', maskInputOptions: { password: true } });
    expect(defaults.endpoint).toBe('/s/');
    const local = readSettings(
      {
        sessionRecording: {
          sampleRate: '0.5',
          consoleLogRecordingEnabled: true,
          masking: { maskTextSelector: '.secret' },
          networkPayloadCapture: { recordBody: true },
        },
      },
      {
        session_recording: { maskAllInputs: false, maskInputOptions: { password: false, email: true }, sampleRate: 1, bogus: 1 },
        enable_recording_console_log: false,
      },
    );
    expect(local.rrweb).toMatchObject({
      maskAllInputs: false,
      maskTextSelector: '.secret',
      maskInputOptions: { password: true, email: true },
    });
    expect(local.sampleRate).toBe(1);
    expect(local.console).toBe(false);
    expect(local.unsupported).toEqual(['session_recording.bogus']);
    expect(local.network?.body).toBe(true); // recorded now (network/settings.ts)
    expect(readSettings({ sessionRecording: { sampleRate: 'x', endpoint: 'https://evil.test/s/' } }, {})).toMatchObject({
      sampleRate: undefined,
      endpoint: '/s/',
    });
  });
});

describe('mutation guard', () => {
  it('allows a burst and a steady rate, and says no once the page goes past them', () => {
    const guard = createMutationGuard(1_000, 100);
    expect(guard(900, 0)).toBe(true);
    expect(guard(100, 1_000)).toBe(true); // refilled by 100 in the second
    expect(guard(500, 1_000)).toBe(false);
  });
});
