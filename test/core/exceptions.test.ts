// The $exception shape from real thrown errors (V8, this process) and from Firefox and Safari stack
// text (their formats are public facts, kept here as fixtures), plus the per-type rate limiter.
import { describe, expect, it } from 'vitest';
import { createExceptionRateLimiter, exceptionProperties, parseStack } from '../../src/core/exceptions';

const node = { platform: 'node:javascript' } as const;
const web = 'web:javascript' as const;

function thrower(): never {
  throw new TypeError('boom');
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

describe('real V8 errors', () => {
  it('gives type, value, a generic handled mechanism and frames with the throwing function last', () => {
    const props = exceptionProperties(caught(thrower), node);
    expect(props.$exception_level).toBe('error');
    const [entry] = props.$exception_list;
    expect(entry).toMatchObject({ type: 'TypeError', value: 'boom', mechanism: { type: 'generic', handled: true, exception_id: 0 } });
    const frames = entry!.stacktrace!.frames;
    expect(entry!.stacktrace!.type).toBe('raw');
    const last = frames.at(-1)!;
    expect(last).toMatchObject({ function: 'thrower', platform: 'node:javascript', in_app: true });
    expect(last.filename).toMatch(/test\/core\/exceptions\.test\.ts$/);
    expect(last.lineno).toBeGreaterThan(0);
    expect(last.colno).toBeGreaterThan(0);
    // Callers come before: caught() called thrower().
    expect(frames.map((f) => f.function)).toContain('caught');
    expect(frames.findIndex((f) => f.function === 'caught')).toBeLessThan(frames.length - 1);
  });

  it('follows the cause chain and AggregateError members, naming each parent', () => {
    const root = new Error('request failed', {
      cause: new AggregateError([new RangeError('first'), 'second as text'], 'all attempts failed'),
    });
    const list = exceptionProperties(root, { ...node, mechanism: { type: 'onuncaughtexception', handled: false } }).$exception_list;
    expect(list.map((e) => [e.type, e.value])).toEqual([
      ['Error', 'request failed'],
      ['AggregateError', 'all attempts failed'],
      ['RangeError', 'first'],
      ['Error', 'second as text'],
    ]);
    expect(list.map((e) => e.mechanism)).toEqual([
      { type: 'onuncaughtexception', handled: false, synthetic: false, exception_id: 0 },
      { type: 'chained', synthetic: false, exception_id: 1, parent_id: 0, source: 'cause' },
      { type: 'chained', synthetic: false, exception_id: 2, parent_id: 1, source: 'member' },
      { type: 'chained', synthetic: true, exception_id: 3, parent_id: 1, source: 'member' },
    ]);
    expect(list[2]!.stacktrace!.frames.length).toBeGreaterThan(0);
    // A string member has no stack of its own, and only the thrown value borrows the call's stack.
    expect(list[3]!.stacktrace).toBeUndefined();
  });

  it('stops at a cause cycle and at 50 entries', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(exceptionProperties(a, node).$exception_list.map((e) => e.value)).toEqual(['a', 'b']);
    const many = new AggregateError(
      Array.from({ length: 500 }, (_, i) => new Error(String(i))),
      'many',
    );
    expect(exceptionProperties(many, node).$exception_list).toHaveLength(50);
  });

  it('marks Node internals and dependencies as not the app, and strips file:// from ESM paths', () => {
    const frames = parseStack(
      [
        'Error: x',
        '    at handler (file:///srv/app/server.mjs:12:9)',
        '    at Layer.handle (/srv/app/node_modules/express/lib/router/layer.js:95:5)',
        '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
        '    at async Promise.all (index 0)',
        '    at Array.map (<anonymous>)',
        '    at new Job (C:\\app\\job.js:3:1)',
      ].join('\n'),
      'node:javascript',
    ).reverse();
    expect(frames.map((f) => [f.function, f.filename, f.lineno, f.in_app])).toEqual([
      ['handler', '/srv/app/server.mjs', 12, true],
      ['Layer.handle', '/srv/app/node_modules/express/lib/router/layer.js', 95, false],
      ['process.processTicksAndRejections', 'node:internal/process/task_queues', 95, false],
      ['Promise.all', 'index 0', undefined, false],
      ['Array.map', '<anonymous>', undefined, false],
      ['new Job', 'C:\\app\\job.js', 3, true],
    ]);
  });
});

describe('browser stack formats (fixtures)', () => {
  it('reads Chrome frames, anonymous ones and eval call sites', () => {
    const stack = [
      'TypeError: Cannot read properties of undefined (reading "x") at mail@example.com',
      '    at render (https://shop.test/assets/app.js:10:15)',
      '    at https://shop.test/assets/app.js:20:3',
      '    at eval (eval at load (https://shop.test/assets/app.js:30:7), <anonymous>:1:1)',
      '    at chrome-extension://abcdef/content.js:1:1',
    ].join('\n');
    expect(parseStack(stack, web).reverse()).toEqual([
      { platform: web, function: 'render', filename: 'https://shop.test/assets/app.js', lineno: 10, colno: 15, in_app: true },
      { platform: web, function: '?', filename: 'https://shop.test/assets/app.js', lineno: 20, colno: 3, in_app: true },
      { platform: web, function: 'eval', filename: 'https://shop.test/assets/app.js', lineno: 30, colno: 7, in_app: true },
      { platform: web, function: '?', filename: 'chrome-extension://abcdef/content.js', lineno: 1, colno: 1, in_app: false },
    ]);
  });

  it('reads Firefox (SpiderMonkey) frames, including eval and a URL with @ in it', () => {
    const stack = [
      'throwIt@https://shop.test/assets/app.js:10:11',
      'handler/<@https://shop.test/assets/app.js:20:5',
      'evil@https://shop.test/assets/app.js line 5 > eval:1:7',
      'load@https://cdn.jsdelivr.net/npm/lib@1.2.3/dist/lib.js:1:200',
      '@https://shop.test/assets/app.js:30:1',
      '',
    ].join('\n');
    expect(
      parseStack(stack, web)
        .reverse()
        .map((f) => [f.function, f.filename, f.lineno, f.colno, f.in_app]),
    ).toEqual([
      ['throwIt', 'https://shop.test/assets/app.js', 10, 11, true],
      ['handler/<', 'https://shop.test/assets/app.js', 20, 5, true],
      ['evil', 'https://shop.test/assets/app.js', 5, undefined, true],
      ['load', 'https://cdn.jsdelivr.net/npm/lib@1.2.3/dist/lib.js', 1, 200, true],
      ['?', 'https://shop.test/assets/app.js', 30, 1, true],
    ]);
  });

  it('reads Safari (JavaScriptCore) frames, with native code and extensions not the app', () => {
    const stack = [
      'throwIt@https://shop.test/assets/app.js:10:20',
      'forEach@[native code]',
      'inject@safari-web-extension://ABC-123/content.js:4:2',
      'global code@https://shop.test/assets/app.js:30:8',
    ].join('\n');
    expect(
      parseStack(stack, web)
        .reverse()
        .map((f) => [f.function, f.filename, f.lineno, f.in_app]),
    ).toEqual([
      ['throwIt', 'https://shop.test/assets/app.js', 10, true],
      ['forEach', '[native code]', undefined, false],
      ['inject', 'safari-web-extension://ABC-123/content.js', 4, false],
      ['global code', 'https://shop.test/assets/app.js', 30, true],
    ]);
  });

  it('keeps the 50 innermost frames of a deep recursion', () => {
    const stack = [
      'RangeError: Maximum call stack size exceeded',
      ...Array.from({ length: 120 }, (_, i) => `    at f${i} (https://x.test/a.js:${i + 1}:1)`),
    ].join('\n');
    const frames = parseStack(stack, web);
    expect(frames).toHaveLength(50);
    expect(frames.at(-1)!.function).toBe('f0');
    expect(frames[0]!.function).toBe('f49');
  });
});

describe('frames come from the stack after the message', () => {
  const fake = '\n    at steal (/app/config/production.js:2:5)';
  const files = (error: unknown, platform = node) =>
    (exceptionProperties(error, platform).$exception_list[0]!.stacktrace?.frames ?? []).map((frame) => frame.filename);

  it('a V8 message carrying frame-shaped lines adds no frame, whatever the error type', () => {
    for (const make of [(m: string) => new Error(m), (m: string) => new TypeError(m), (m: string) => new AggregateError([], m)]) {
      const error = caught(() => {
        throw make('bad name: ' + fake);
      });
      expect(files(error)).not.toContain('/app/config/production.js');
      expect(files(error).at(-1)).toMatch(/exceptions\.test\.ts$/);
    }
  });

  it('finds the message at the end of the first line even when its text also appears in the type name', () => {
    const error = Object.assign(new AggregateError([], 'a'), { stack: `AggregateError: a\n    at run (/srv/app.js:1:1)` });
    expect(files(error)).toEqual(['/srv/app.js']);
  });

  it('takes a Firefox or Safari stack (frames only) whole, even when a frame starts with the message', () => {
    const error = Object.assign(new Error('load'), { stack: 'load@https://shop.test/app.js:1:1\nrun@https://shop.test/app.js:2:2\n' });
    expect(exceptionProperties(error, { platform: web }).$exception_list[0]!.stacktrace!.frames.map((frame) => frame.function)).toEqual([
      'run',
      'load',
    ]);
  });

  it('a stack without its message (the message changed after the stack was read) is taken whole', () => {
    const error = Object.assign(new Error('changed'), { stack: 'Error: original\n    at run (/srv/app.js:1:1)' });
    expect(files(error)).toEqual(['/srv/app.js']);
  });
});

describe('values that are no Error', () => {
  const value = (input: unknown) => exceptionProperties(input, node).$exception_list[0]!;

  it('reads a typed message from a string, else calls it an Error', () => {
    expect(value('TypeError: x is not a function')).toMatchObject({ type: 'TypeError', value: 'x is not a function' });
    expect(value('Uncaught ReferenceError: y is not defined')).toMatchObject({ type: 'ReferenceError', value: 'y is not defined' });
    expect(value('plain words')).toMatchObject({ type: 'Error', value: 'plain words', mechanism: { synthetic: true } });
  });

  it('describes objects, wrapped Errors and primitives', () => {
    expect(value({ name: 'ApiError', message: 'quota' })).toMatchObject({ type: 'ApiError', value: 'quota' });
    expect(value({ code: 42, status: 'bad' })).toMatchObject({ type: 'Error', value: 'Non-Error object thrown, with keys: code, status' });
    expect(value({ error: new SyntaxError('inner') })).toMatchObject({
      type: 'SyntaxError',
      value: 'inner',
      mechanism: { synthetic: false },
    });
    expect(value(null)).toMatchObject({ type: 'Error', value: 'Non-Error value thrown: null' });
    expect(value(undefined)).toMatchObject({ value: 'Non-Error value thrown: undefined' });
    expect(value(42)).toMatchObject({ value: 'Non-Error value thrown: 42' });
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no');
        },
      },
    );
    expect(value(hostile)).toMatchObject({ type: 'Error', value: 'Unreadable value thrown' });
  });

  it('gives a non-Error the frames of the capture call, minus the SDK frames', () => {
    function captureHere(input: unknown) {
      return exceptionProperties(input, { ...node, syntheticStack_: new Error('synthetic').stack, syntheticSkip_: 1 });
    }
    function appCode() {
      return captureHere('oops');
    }
    const [entry] = appCode().$exception_list;
    expect(entry!.mechanism.synthetic).toBe(true);
    expect(entry!.stacktrace!.frames.at(-1)!.function).toBe('appCode');
  });
});

describe('rate limiter', () => {
  it('lets 10 of a type through, then 1 per 10 seconds, other types untouched', () => {
    const limiter = createExceptionRateLimiter();
    const t0 = 1_000_000;
    const allowed = Array.from({ length: 15 }, () => limiter.take('TypeError', t0)).filter(Boolean);
    expect(allowed).toHaveLength(10);
    expect(limiter.take('RangeError', t0)).toBe(true);
    expect(limiter.take('TypeError', t0 + 9_999)).toBe(false);
    expect(limiter.take('TypeError', t0 + 10_000)).toBe(true);
    expect(limiter.take('TypeError', t0 + 10_001)).toBe(false);
    expect(limiter.take('TypeError', t0 + 60_000)).toBe(true);
  });

  it('keeps limiting when a program names thousands of error types: types beyond the tracked ones share one bucket', () => {
    const limiter = createExceptionRateLimiter();
    const t0 = 1_000_000;
    let passed = 0;
    // 5,000 distinct names, 4 errors each, all at once: 20,000 errors.
    for (let round = 0; round < 4; round++) for (let i = 0; i < 5_000; i++) if (limiter.take(`DynamicError${i}`, t0)) passed++;
    // The 1,000 tracked types pass their 4 each; the other 4,000 types share 10.
    expect(passed).toBe(4_010);
    // Once the tracked buckets are full again, forgetting them loses nothing: new types get their own.
    const later = t0 + 100_000;
    const fresh = Array.from({ length: 10 }, () => limiter.take('LateError', later));
    expect(fresh.every(Boolean)).toBe(true);
    expect(limiter.take('LateError', later)).toBe(false);
  });
});
