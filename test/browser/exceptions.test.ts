// @vitest-environment happy-dom
// The browser's exception starter on happy-dom's window: error and unhandledrejection events,
// errors carrying Firefox and Safari stacks (fixtures), messages without an error object, the
// per-type rate limit, and stopping. Real Chromium errors are in test/e2e/exceptions.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import type { ExceptionProperties } from '../../src/core/exceptions';
import {
  exceptionEventProperties,
  exceptionKinds,
  startExceptionAutocapture,
  type ExceptionKinds,
} from '../../src/browser/features/exceptions';

let stop: (() => void) | undefined;
afterEach(() => stop?.());

function start(kinds?: ExceptionKinds) {
  const captured: ExceptionProperties[] = [];
  const limited: string[] = [];
  stop = startExceptionAutocapture(
    window,
    (properties) => captured.push(properties),
    (type) => limited.push(type),
    kinds,
  );
  return { captured, limited };
}

function errorWithStack(type: string, message: string, stack: string): Error {
  const error = new Error(message);
  error.name = type;
  error.stack = stack;
  return error;
}

const FIREFOX = 'render@https://shop.test/app.js:12:9\nonClick@https://shop.test/app.js:40:3\n';
const SAFARI = 'render@https://shop.test/app.js:12:20\nforEach@[native code]\nglobal code@https://shop.test/app.js:50:1';

describe('startExceptionAutocapture', () => {
  it('captures an error event with a Firefox stack as unhandled, frames oldest first', () => {
    const { captured } = start();
    window.dispatchEvent(new ErrorEvent('error', { error: errorWithStack('TypeError', 'x is null', FIREFOX), message: 'x is null' }));
    expect(captured).toHaveLength(1);
    const [entry] = captured[0]!.$exception_list;
    expect(entry).toMatchObject({ type: 'TypeError', value: 'x is null', mechanism: { type: 'onerror', handled: false } });
    expect(entry!.stacktrace!.frames.map((f) => [f.function, f.lineno, f.colno, f.platform, f.in_app])).toEqual([
      ['onClick', 40, 3, 'web:javascript', true],
      ['render', 12, 9, 'web:javascript', true],
    ]);
  });

  it('captures a rejection with a Safari stack, and one with a plain value', () => {
    const { captured } = start();
    const reject = (reason: unknown) =>
      window.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason, promise: Promise.resolve() }));
    reject(errorWithStack('RangeError', 'too big', SAFARI));
    reject('offline');
    expect(captured.map((p) => p.$exception_list[0]!.mechanism)).toEqual([
      { type: 'onunhandledrejection', handled: false, synthetic: false, exception_id: 0 },
      { type: 'onunhandledrejection', handled: false, synthetic: true, exception_id: 0 },
    ]);
    expect(captured[0]!.$exception_list[0]!.stacktrace!.frames.map((f) => [f.function, f.in_app])).toEqual([
      ['global code', true],
      ['forEach', false],
      ['render', true],
    ]);
    expect(captured[1]!.$exception_list[0]).toMatchObject({ type: 'Error', value: 'offline' });
  });

  it('an error event without an error object (cross-origin script) keeps its message and place', () => {
    const { captured } = start();
    window.dispatchEvent(
      new ErrorEvent('error', {
        message: 'Uncaught ReferenceError: gtag is not defined',
        filename: 'https://shop.test/app.js',
        lineno: 7,
        colno: 3,
      }),
    );
    const [entry] = captured[0]!.$exception_list;
    expect(entry).toMatchObject({ type: 'ReferenceError', value: 'gtag is not defined' });
    expect(entry!.stacktrace!.frames).toEqual([
      { platform: 'web:javascript', function: '?', filename: 'https://shop.test/app.js', lineno: 7, colno: 3, in_app: true },
    ]);
  });

  it('lets 10 of a type through and hands the rest to onRateLimited; stop() stops listening', () => {
    const { captured, limited } = start();
    for (let i = 0; i < 25; i++) window.dispatchEvent(new ErrorEvent('error', { error: new TypeError('loop ' + i) }));
    window.dispatchEvent(new ErrorEvent('error', { error: new SyntaxError('other') }));
    expect(captured.map((p) => p.$exception_list[0]!.type)).toEqual([...Array(10).fill('TypeError'), 'SyntaxError']);
    expect(limited).toEqual(Array(15).fill('TypeError'));
    stop!();
    window.dispatchEvent(new ErrorEvent('error', { error: new SyntaxError('after stop') }));
    expect(captured).toHaveLength(11);
  });
});

describe("capture_exceptions' kinds", () => {
  it("reads posthog-js's option: true is errors and rejections, an object picks", () => {
    expect(exceptionKinds(true)).toEqual({ errors_: true, rejections_: true });
    expect(exceptionKinds(false)).toEqual({ errors_: false, rejections_: false });
    expect(exceptionKinds({ capture_unhandled_errors: true, capture_console_errors: true })).toEqual({
      errors_: true,
      rejections_: false,
      console: true,
    });
  });

  it('listens only to what was picked', () => {
    const { captured } = start({ rejections_: true });
    window.dispatchEvent(new ErrorEvent('error', { error: new TypeError('not listened to') }));
    window.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: new Error('listened to') }));
    expect(captured.map((p) => p.$exception_list[0]!.value)).toEqual(['listened to']);
  });

  it("console errors: captured as handled, with the caller's frames, the console still printing; hogtail's own lines left alone", () => {
    const printed: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void printed.push(args);
    try {
      const { captured } = start({ console: true });
      function renderCart() {
        console.error('cart total', 'NaN');
      }
      renderCart();
      console.error('failed:', new RangeError('quantity'));
      console.error('[hogtail] InvalidEventError: about hogtail');
      expect(captured.map((p) => p.$exception_list[0]).map((e) => [e!.type, e!.value, e!.mechanism.type, e!.mechanism.handled])).toEqual([
        ['Error', 'cart total NaN', 'onconsole', true],
        ['RangeError', 'quantity', 'onconsole', true],
      ]);
      expect(captured[0]!.$exception_list[0]!.stacktrace!.frames.at(-1)!.function).toBe('renderCart');
      expect(printed).toHaveLength(3);
      stop!();
      stop = undefined;
      console.error('after stop');
      expect(captured).toHaveLength(2);
      expect(printed).toHaveLength(4);
    } finally {
      console.error = original;
    }
  });
});

describe('the console.error wrapper with arguments that cannot become text', () => {
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const HOSTILE: [string, () => unknown][] = [
    ['a null-prototype object', () => Object.create(null)],
    ['a Symbol', () => Symbol('params')],
    [
      'an object whose toString throws',
      () => ({
        toString: () => {
          throw new Error('no text');
        },
      }),
    ],
    ['a revoked Proxy', revoked],
  ];

  it.each(HOSTILE)('%s: never throws, prints the same arguments, and the call is captured', (_, make) => {
    const printed: unknown[][] = [];
    const original = console.error;
    console.error = function (this: unknown, ...args: unknown[]) {
      printed.push([this, ...args]);
    };
    try {
      const { captured } = start({ console: true });
      const arg = make();
      expect(() => console.error('bad params', arg)).not.toThrow();
      expect(() => console.error(arg)).not.toThrow();
      // The page's console got exactly what the app passed, with the console as `this`.
      expect(printed).toHaveLength(2);
      expect(printed[0]![0]).toBe(console);
      expect(printed[0]![1]).toBe('bad params');
      expect(printed[0]![2]).toBe(arg);
      expect(printed[1]![1]).toBe(arg);
      const first = captured[0]!.$exception_list[0]!;
      expect(first.mechanism).toMatchObject({ type: 'onconsole', handled: true });
      expect(first.value.startsWith('bad params ')).toBe(true);
    } finally {
      console.error = original;
    }
  });

  it('a console.error made while hogtail captures one (a hook that logs) is printed, not captured again in a loop', () => {
    const printed: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void printed.push(args[0]);
    try {
      let calls = 0;
      stop = startExceptionAutocapture(
        window,
        () => {
          calls++;
          console.error('logged from the capture hook');
        },
        undefined,
        { console: true },
      );
      expect(() => console.error('first')).not.toThrow();
      expect(calls).toBe(1);
      expect(printed).toEqual(['logged from the capture hook', 'first']);
    } finally {
      console.error = original;
    }
  });
});

describe('exceptionEventProperties (captureException)', () => {
  it("is handled, generic, merges the caller's properties, and gives a string the caller's frames", () => {
    const client = {
      captureException: (error: unknown, properties?: Record<string, unknown>) => exceptionEventProperties(error, properties),
    };
    function checkout() {
      return client.captureException('payment declined', { step: 'pay' });
    }
    const properties = checkout();
    expect(properties.step).toBe('pay');
    const [entry] = properties.$exception_list;
    expect(entry).toMatchObject({
      type: 'Error',
      value: 'payment declined',
      mechanism: { type: 'generic', handled: true, synthetic: true },
    });
    expect(entry!.stacktrace!.frames.at(-1)!.function).toBe('checkout');
  });

  it('leaves out as many SDK frames as the caller says (a guard between the method and the app)', () => {
    const guard = <T>(fn: () => T) => fn();
    const client = { captureException: (error: unknown) => guard(() => exceptionEventProperties(error, undefined, 4)) };
    function onSubmit() {
      return client.captureException({ code: 'E_FORM' });
    }
    expect(onSubmit().$exception_list[0]!.stacktrace!.frames.at(-1)!.function).toBe('onSubmit');
  });
});
