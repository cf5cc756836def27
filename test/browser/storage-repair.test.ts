// @vitest-environment happy-dom
// Stored state that is corrupted (issue 16, item 6): every value read back is checked; a bad one is
// replaced once, reported, and counted in stats().repaired, and capture/identify keep working.
import { beforeEach, describe, expect, it } from 'vitest';
import { createHogtail } from '../../src/browser/api/drop-in';
import { fakeFetch } from './helpers';

let KEY = 'phc_repair';
let tests = 0;
const stateKey = () => `ht|${KEY}|p`;
const store = (state: unknown) => localStorage.setItem(stateKey(), JSON.stringify(state));
const good = { distinct_id: 'anon-1', $device_id: 'device-1', $user_state: 'anonymous', props: {}, $groups: {} };

function start(config: Record<string, unknown> = {}) {
  const client = createHogtail();
  const errors: string[] = [];
  client.on('error', (error) => errors.push(error.message));
  client.init(KEY, { api_host: 'https://collector.test', capture_pageview: false, flush_at: 1, ...config });
  return { client, errors };
}

describe('stored state is validated', () => {
  beforeEach(() => {
    localStorage.clear();
    KEY = `phc_repair_${++tests}`;
  });

  it('a session id stored as a string: replaced once, reported, counted; capture and identify work', async () => {
    const { sent } = fakeFetch();
    store({ ...good, sid: 'not-a-session' });
    const { client, errors } = start();
    client.capture('after corruption');
    client.identify('user-1');
    await client.flush();
    expect(sent.map((e) => e.event)).toEqual(['after corruption', '$identify']);
    expect(sent[0]!.properties.$session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[0]!.properties.distinct_id).toBe('anon-1');
    expect(client.stats().repaired).toBe(1);
    expect(errors.filter((m) => m.includes('sid'))).toHaveLength(1);
    // Written back repaired: the next page finds nothing to repair.
    await new Promise((resolve) => setTimeout(resolve));
    expect(start().client.stats().repaired).toBe(0);
  });

  it('optout: "yes" is not half-obeyed: replaced, and has_opted_out_capturing() agrees with what is sent', async () => {
    const { sent } = fakeFetch();
    store({ ...good, optout: 'yes' });
    const { client } = start();
    expect(client.has_opted_out_capturing()).toBe(false);
    client.capture('sent');
    await client.flush();
    expect(sent.map((e) => e.event)).toEqual(['sent']);
    expect(client.stats()).toMatchObject({ repaired: 1, dropped: {} });
  });

  it('a blank stored distinct id becomes a fresh anonymous id; the device id is kept', async () => {
    const { sent } = fakeFetch();
    store({ ...good, distinct_id: '   ' });
    const { client } = start();
    expect(client.get_distinct_id()).toMatch(/^[0-9a-f-]{36}$/);
    client.capture('x');
    await client.flush();
    expect(sent[0]!.properties).toMatchObject({ distinct_id: client.get_distinct_id(), $device_id: 'device-1' });
    expect(client.stats().repaired).toBe(1);
  });

  it('a flag-call record of the wrong type: flags still answer and $feature_flag_called is sent', async () => {
    const { sent } = fakeFetch();
    store({ ...good, fc: 42, ff: { flags: { beta: true }, payloads: {} } });
    const { client } = start({ advanced_disable_flags: true });
    expect(client.getFeatureFlag('beta')).toBe(true);
    await client.flush();
    expect(sent.map((e) => e.event)).toEqual(['$feature_flag_called']);
    expect(client.stats().repaired).toBe(1);
  });

  it('a state that is not an object, and a consent value that is none of granted/denied', () => {
    fakeFetch();
    localStorage.setItem(stateKey(), '"just a string"');
    localStorage.setItem(`ht|${KEY}|c`, 'maybe');
    const { client } = start();
    expect(client.get_explicit_consent_status()).toBe('pending');
    expect(client.stats().repaired).toBe(2);
    expect(localStorage.getItem(`ht|${KEY}|c`)).toBeNull();
  });

  it('a Prototype.js-style Array.prototype.toJSON does not start a new session on every load', async () => {
    fakeFetch();
    const proto = Array.prototype as { toJSON?: () => string };
    proto.toJSON = function (this: unknown[]) {
      return JSON.stringify(this.slice());
    };
    try {
      const first = start().client;
      const session = first.get_session_id();
      await new Promise((resolve) => setTimeout(resolve)); // the state is written in a microtask
      const second = start().client;
      expect(second.get_session_id()).toBe(session);
      expect(second.stats().repaired).toBe(0);
    } finally {
      delete proto.toJSON;
    }
  });
});

describe('properties that cannot be read', () => {
  it('a throwing getter and a throwing Proxy: refused without throwing, counted in stats().dropped.invalid', async () => {
    const { sent } = fakeFetch();
    KEY = `phc_repair_${++tests}`;
    const { client, errors } = start();
    const getter = Object.defineProperty({}, 'secret', {
      enumerable: true,
      get: () => {
        throw new Error('no access');
      },
    });
    const proxy = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('revoked');
        },
        has: () => {
          throw new Error('revoked');
        },
      },
    );
    expect(() => client.capture('getter', getter)).not.toThrow();
    expect(() => client.capture('proxy', proxy)).not.toThrow();
    client.capture('fine');
    await client.flush();
    expect(sent.map((e) => e.event)).toEqual(['fine']);
    expect(client.stats().dropped.invalid).toBe(2);
    expect(errors.filter((m) => m.includes('could not be read'))).toHaveLength(2);
  });
});

describe('thrown values that cannot become text', () => {
  // A Symbol, or an object with no toString, makes String(x) and `${x}` throw a TypeError of their
  // own. The minifier also rewrites String(x) as x+"", so the bundle re-run of this suite matters.
  const hostile = [
    Symbol('no text'),
    Object.create(null),
    {
      toString: () => {
        throw new Error('no text either');
      },
    },
  ];

  it('from a property getter, loaded() and before_send: nothing reaches the page, each is refused or reported', async () => {
    for (const [index, value] of hostile.entries()) {
      const { sent } = fakeFetch();
      KEY = `phc_repair_${++tests}`;
      const thrower = () => {
        throw value;
      };
      let client!: ReturnType<typeof start>['client'];
      let errors!: string[];
      expect(() => ({ client, errors } = start({ loaded: thrower }))).not.toThrow();
      const getter = Object.defineProperty({}, 'secret', { enumerable: true, get: thrower });
      expect(() => client.capture('getter', getter)).not.toThrow();
      client.set_config({ before_send: (event) => (event?.event === 'hooked' ? thrower() : event) });
      expect(() => client.capture('hooked')).not.toThrow();
      expect(() => client.capture(value as never)).not.toThrow();
      client.capture('fine');
      await client.flush();
      // before_send that throws leaves the event as it was (posthog-js's rule); the getter's event is refused.
      expect(
        sent.map((e) => e.event),
        `value ${index}`,
      ).toEqual(['hooked', 'fine']);
      expect(client.stats().dropped.invalid, `value ${index}`).toBe(2);
      // loaded(), the getter, the hook and the bad event name: each reported with what was thrown.
      expect(errors, `value ${index}`).toHaveLength(4);
      expect(errors.join('\n'), `value ${index}`).not.toMatch(/TypeError/);
    }
  });
});
