// @vitest-environment happy-dom
// What session replay hands from one page of a session to the next (issue #24): the recording a
// page held back (parked-part.ts), taken back only by the same session and tab, bounded in size,
// never kept when the app keeps nothing on the device; and the triggers and overrides a session saw
// (session-marks.ts), which a new session does not inherit. Chromium runs the same end to end in
// test/e2e/replay-durable.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ExtensionContext } from '../../../src/browser/index';
import { createParking, MAX_PARKED_CHARS } from '../../../src/extensions/recorder/parked-part';
import { createSessionMarks } from '../../../src/extensions/recorder/session-marks';

function contextWith(config: Record<string, unknown> = {}) {
  const dropped: [string, number][] = [];
  const reported: string[] = [];
  const context = {
    token: 'phc_test',
    config,
    drop: (reason: string, count: number) => dropped.push([reason, count]),
    report: (error: Error) => reported.push(error.message),
  } as unknown as ExtensionContext;
  return { context, dropped, reported };
}

const part = (sessionId: string, events: string[]) => ({ sessionId, windowId: 'w1', events });

describe('a held-back recording handed to the next page', () => {
  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });

  it('the same session and tab take it back once, in order', () => {
    const events = ['{"type":4,"data":{},"timestamp":1}', '{"type":3,"data":{"text":"a\\nb"},"timestamp":2}'];
    createParking(contextWith().context).park(part('s1', events), 100);
    const next = createParking(contextWith().context);
    expect(next.take('s1', 'w1')).toEqual({ events, bytes: events[0]!.length + events[1]!.length });
    expect(next.take('s1', 'w1')).toEqual({ events: [], bytes: 0 });
  });

  it("another session's or another tab's recording is never taken back", () => {
    const { context } = contextWith();
    createParking(context).park(part('s1', ['{"type":4}']), 10);
    expect(createParking(context).take('s2', 'w1').events).toEqual([]);
    createParking(context).park(part('s1', ['{"type":4}']), 10);
    expect(createParking(context).take('s1', 'w2').events).toEqual([]);
  });

  it('one over the size bound is dropped, counted too_large and reported; nothing is parked without persistence', () => {
    const big = contextWith();
    createParking(big.context).park(part('s1', ['x']), MAX_PARKED_CHARS + 1);
    expect(big.dropped).toEqual([['too_large', 1]]);
    expect(big.reported[0]).toMatch(/could not be kept for the next page/);
    expect(createParking(big.context).take('s1', 'w1').events).toEqual([]);

    const memory = contextWith({ persistence: 'memory' });
    createParking(memory.context).park(part('s1', ['{"type":4}']), 10);
    expect(sessionStorage.length).toBe(0);
  });
});

describe("a session's triggers and overrides on its next pages", () => {
  beforeEach(() => localStorage.clear());

  it('hold for the session they happened in, on a later page too; a new session has none', () => {
    createSessionMarks(contextWith().context).mark('url_trigger', 's1');
    const later = createSessionMarks(contextWith().context);
    expect(later.has('url_trigger', 's1')).toBe(true);
    expect(later.has('event_trigger', 's1')).toBe(false);
    expect(later.has('url_trigger', 's2')).toBe(false);
    // posthog-js's key and encoding: the id of the session it happened in.
    expect(JSON.parse(localStorage.getItem('ht|phc_test|replay')!)).toEqual({ $session_recording_url_trigger_activated_session: 's1' });
  });

  it('stay in memory when the app keeps nothing on the device', () => {
    const marks = createSessionMarks(contextWith({ disable_persistence: true }).context);
    marks.mark('event_trigger', 's1');
    expect(marks.has('event_trigger', 's1')).toBe(true);
    expect(localStorage.length).toBe(0);
  });
});
