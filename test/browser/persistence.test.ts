// @vitest-environment happy-dom
// @vitest-environment-options { "url": "https://app.shop.test/checkout" }
// The persistence modes on happy-dom, through the state layer (state.ts) as the client uses it:
// where the state goes, posthog-js's cookie format, and posthog-js records (fixtures in its
// documented format) picked up on a first visit. Real cookies across subdomains, as a server reads
// them, and real posthog-js are in test/e2e/cookies.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { openStateBacking, type PersistenceConfig } from '../../src/browser/state/persistence';
import { crossSubdomainByDefault } from '../../src/browser/state/persistence/cookies';
import { createStateStore } from '../../src/browser/state/state';

let token = 'phc_unit';
let n = 0;
beforeEach(() => {
  token = `phc_persist_${++n}`;
  localStorage.clear();
  sessionStorage.clear();
});

const key = () => `ht|${token}|p`;
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function open(config: PersistenceConfig = {}, warnings: string[] = []) {
  const backing = openStateBacking(token, key(), config, (warning) => warnings.push(warning));
  return { backing, states: createStateStore(undefined, key(), token, undefined, backing) };
}

function cookie(name: string): unknown {
  const pair = document.cookie.split('; ').find((part) => part.startsWith(name + '='));
  return pair === undefined ? undefined : JSON.parse(decodeURIComponent(pair.slice(name.length + 1)));
}

describe("'localStorage+cookie' (the default)", () => {
  it("keeps the state in localStorage and the identity in posthog-js's cookie format", async () => {
    const { backing, states } = open();
    expect(backing.mode).toBe('localStorage+cookie');
    const session = states.session_(Date.now());
    states.state_.props.plan = 'pro';
    states.state_.$epp = true;
    await tick();
    const { distinct_id, $device_id, sid } = states.state_;
    expect(JSON.parse(localStorage.getItem(key())!)).toMatchObject({ distinct_id, props: { plan: 'pro' } });
    expect(cookie(`ph_${token}_posthog`)).toEqual({
      distinct_id,
      $device_id,
      $user_state: 'anonymous',
      $sesid: [sid![1], session, sid![2]],
      $epp: true,
    });
  });

  it('on a first visit takes identity and session from a cookie written by another subdomain', async () => {
    const now = Date.now();
    document.cookie = `ph_${token}_posthog=${encodeURIComponent(
      JSON.stringify({
        distinct_id: 'user-7',
        $device_id: 'dev-1',
        $user_state: 'identified',
        $sesid: [now - 1_000, 'sess-1', now - 60_000],
      }),
    )}; path=/`;
    const { states } = open();
    expect(states.state_).toMatchObject({ distinct_id: 'user-7', $device_id: 'dev-1', $user_state: 'identified' });
    expect(states.session_(now)).toBe('sess-1');
  });
});

describe('posthog-js visitors keep their identity', () => {
  const record = (id: string) => ({
    distinct_id: id,
    $device_id: 'device-' + id,
    $user_state: 'anonymous',
    $sesid: [Date.now(), 'session-' + id, Date.now()],
    $active_feature_flags: ['beta'],
    plan: 'super property',
  });

  it('from its localStorage record (persistence: localStorage)', () => {
    localStorage.setItem(`ph_${token}_posthog`, JSON.stringify(record('from-ls')));
    expect(open().states.state_).toMatchObject({ distinct_id: 'from-ls', $device_id: 'device-from-ls' });
  });

  it('from its cookie (persistence: cookie), storage winning where both exist as in posthog-js', () => {
    document.cookie = `ph_${token}_posthog=${encodeURIComponent(JSON.stringify(record('from-cookie')))}; path=/`;
    expect(open().states.state_.distinct_id).toBe('from-cookie');
    token += '_both';
    document.cookie = `ph_${token}_posthog=${encodeURIComponent(JSON.stringify(record('cookie-side')))}; path=/`;
    localStorage.setItem(`ph_${token}_posthog`, JSON.stringify(record('storage-side')));
    expect(open().states.state_.distinct_id).toBe('storage-side');
  });

  it("from persistence_name's storage name", () => {
    localStorage.setItem('ph_custom', JSON.stringify(record('named')));
    expect(open({ persistence_name: 'custom' }).states.state_.distinct_id).toBe('named');
  });
});

describe('other modes', () => {
  it("'cookie' keeps the state in cookies (flags excepted) and nothing in localStorage", async () => {
    const { states } = open({ persistence: 'cookie' });
    states.state_.props.plan = 'pro';
    states.state_.ff = { flags: { beta: true }, payloads: {} };
    states.state_.fc = [states.state_.distinct_id, '["beta",true]'];
    await tick();
    expect(localStorage.length).toBe(0);
    const saved = cookie(key()) as Record<string, unknown>;
    expect(saved).toMatchObject({ distinct_id: states.state_.distinct_id, props: { plan: 'pro' } });
    expect(saved).not.toHaveProperty('ff');
    expect(saved).not.toHaveProperty('fc');
    expect(cookie(`ph_${token}_posthog`)).toMatchObject({ distinct_id: states.state_.distinct_id });
    // The next page is the same visitor, with the same super properties.
    expect(open({ persistence: 'cookie' }).states.state_).toMatchObject({ distinct_id: states.state_.distinct_id, props: { plan: 'pro' } });
  });

  it.each(['localStorage', 'sessionStorage'] as const)("'%s' keeps the state there and writes no cookie", async (mode) => {
    const { states } = open({ persistence: mode });
    await tick();
    const store = mode === 'localStorage' ? localStorage : sessionStorage;
    expect(JSON.parse(store.getItem(key())!).distinct_id).toBe(states.state_.distinct_id);
    expect(localStorage.length + sessionStorage.length).toBe(1);
    expect(document.cookie).not.toContain(token);
  });

  it("'memory' keeps nothing: the next page is a new visitor", async () => {
    const first = open({ persistence: 'memory' }).states.state_.distinct_id;
    await tick();
    expect(localStorage.length + sessionStorage.length).toBe(0);
    expect(document.cookie).not.toContain(token);
    expect(open({ persistence: 'memory' }).states.state_.distinct_id).not.toBe(first);
  });

  it('an unknown mode warns and uses the default; disable_persistence means memory', () => {
    const warnings: string[] = [];
    expect(open({ persistence: 'indexedDB' as never }, warnings).backing.mode).toBe('localStorage+cookie');
    expect(warnings).toEqual([
      "persistence 'indexedDB' is not one of localStorage+cookie, cookie, localStorage, sessionStorage, memory; using 'localStorage+cookie'",
    ]);
    expect(open({ disable_persistence: true }).backing.mode).toBe('memory');
  });
});

describe('cross_subdomain_cookie default', () => {
  it('is on, except on shared hosting domains (as posthog-js)', () => {
    expect(crossSubdomainByDefault('app.shop.test')).toBe(true);
    expect(crossSubdomainByDefault('my-app.vercel.app')).toBe(false);
    expect(crossSubdomainByDefault('my-app.herokuapp.com')).toBe(false);
    expect(crossSubdomainByDefault('my-app.netlify.app')).toBe(false);
  });
});

describe('move_ (set_config of a persistence option)', () => {
  it('writes the state where the new mode keeps it and removes it from the old place, cookies included', async () => {
    const { states } = open();
    states.state_.props.plan = 'pro';
    await tick();
    const id = states.state_.distinct_id;
    expect(cookie(`ph_${token}_posthog`)).toMatchObject({ distinct_id: id });
    states.move_(openStateBacking(token, key(), { persistence: 'sessionStorage' }));
    await tick();
    expect(localStorage.getItem(key())).toBeNull();
    expect(cookie(`ph_${token}_posthog`)).toBeUndefined();
    expect(JSON.parse(sessionStorage.getItem(key())!)).toMatchObject({ distinct_id: id, props: { plan: 'pro' } });
    states.move_(openStateBacking(token, key(), { disable_persistence: true }));
    await tick();
    expect(sessionStorage.getItem(key())).toBeNull();
    expect(states.state_.distinct_id).toBe(id);
  });
});
