// @vitest-environment happy-dom
// Exceptions and persistence as the drop-in client wires them (drop-in.ts, exceptions-api.ts,
// client.ts): which capture_exceptions kinds it listens to, where rate-limited exceptions are
// counted, which frames captureException() keeps, and where a bad `persistence` value is reported.
// Events are taken in before_send (which then drops them), so nothing is sent.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExceptionProperties } from '../../src/core/exceptions';
import { createHogtail } from '../../src/browser/api/drop-in';
import type { Hogtail, HogtailConfig } from '../../src/browser/hogtail';

let client: Hogtail | undefined;
afterEach(() => {
  client?.stopExceptionAutocapture();
  client = undefined;
  localStorage.clear();
  vi.restoreAllMocks();
});

function start(config: HogtailConfig = {}) {
  const exceptions: ExceptionProperties[] = [];
  client = createHogtail();
  client.init('phc_wiring', {
    api_host: 'http://127.0.0.1:9',
    capture_pageview: false,
    advanced_disable_decide: true,
    before_send: (event) => {
      if (event?.event === '$exception') exceptions.push(event.properties as unknown as ExceptionProperties);
      return null;
    },
    ...config,
  });
  return { client, exceptions };
}

const lastFrame = (properties: ExceptionProperties | undefined) => properties?.$exception_list[0]?.stacktrace?.frames.at(-1)?.function;
const rejection = (reason: unknown) => Object.assign(new Event('unhandledrejection'), { reason });

describe('capture_exceptions through the client', () => {
  it('an object picks the kinds: only rejections here, not uncaught errors', () => {
    const { exceptions } = start({ capture_exceptions: { capture_unhandled_rejections: true } });
    window.dispatchEvent(new ErrorEvent('error', { error: new TypeError('not picked') }));
    window.dispatchEvent(rejection(new Error('picked')));
    expect(exceptions.map((p) => p.$exception_list[0]!.value)).toEqual(['picked']);
  });

  it('true listens to both', () => {
    const { exceptions } = start({ capture_exceptions: true });
    window.dispatchEvent(new ErrorEvent('error', { error: new TypeError('error') }));
    window.dispatchEvent(rejection(new Error('rejection')));
    expect(exceptions.map((p) => p.$exception_list[0]!.value)).toEqual(['error', 'rejection']);
  });

  it("startExceptionAutocapture(config) picks the kinds as posthog-js's does; without one, both", () => {
    const { client, exceptions } = start();
    client.startExceptionAutocapture({ capture_unhandled_errors: true });
    window.dispatchEvent(new ErrorEvent('error', { error: new TypeError('picked') }));
    window.dispatchEvent(rejection(new Error('not picked')));
    client.stopExceptionAutocapture();
    client.startExceptionAutocapture();
    window.dispatchEvent(rejection(new Error('default')));
    expect(exceptions.map((p) => p.$exception_list[0]!.value)).toEqual(['picked', 'default']);
  });

  it('exceptions held back by the rate limit are counted in stats().dropped.rate_limited', () => {
    const { client, exceptions } = start({ capture_exceptions: true });
    for (let i = 0; i < 25; i++) window.dispatchEvent(new ErrorEvent('error', { error: new TypeError('loop ' + i) }));
    expect(exceptions).toHaveLength(10);
    expect(client.stats().dropped.rate_limited).toBe(15);
  });
});

describe('captureException() through the client', () => {
  it("a string gets a stack that starts at the caller's code, not in the SDK", () => {
    const { client, exceptions } = start();
    function checkout() {
      client.captureException('payment declined');
    }
    checkout();
    expect(exceptions[0]!.$exception_list[0]).toMatchObject({ value: 'payment declined', mechanism: { synthetic: true } });
    expect(lastFrame(exceptions[0])).toBe('checkout');
  });

  it('an Error keeps its own stack, which ends where it was made', () => {
    const { client, exceptions } = start();
    function submitOrder() {
      try {
        throw new RangeError('quantity out of range');
      } catch (error) {
        client.captureException(error);
      }
    }
    submitOrder();
    expect(exceptions[0]!.$exception_list[0]).toMatchObject({ type: 'RangeError', value: 'quantity out of range' });
    expect(lastFrame(exceptions[0])).toBe('submitOrder');
  });
});

describe('persistence through the client', () => {
  it('an unknown persistence value is reported by name, and the client goes on with the default', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { client } = start({ persistence: 'indexedDB' as never });
    const lines = warn.mock.calls.map(([line]) => String(line));
    expect(lines.filter((line) => line.includes("persistence 'indexedDB'"))).toHaveLength(1);
    client.capture('still works');
    expect(client.get_distinct_id()).toBeTruthy();
  });
});
