// @vitest-environment happy-dom
// hogtail/react's hooks against a real browser client talking to a real server on 127.0.0.1:
// undefined until flags are known, re-render on arrival and on change, $feature_flag_called once
// per value, stable payload and list identities, nearest provider wins.
import { act, createElement, StrictMode, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createHogtail, type Hogtail } from '../../src/browser';
import {
  PostHogProvider,
  useActiveFeatureFlags,
  useFeatureFlagEnabled,
  useFeatureFlagPayload,
  useFeatureFlagResult,
  useFeatureFlagVariantKey,
  usePostHog,
} from '../../src/react';
import { startFlagServer, until, useReactPage } from './flag-server';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const page = useReactPage();
let keyCounter = 0;

function newClient(init = true): Hogtail {
  const client = createHogtail();
  if (init) client.init(`phc_react_${++keyCounter}`, { api_host: page.server.url, capture_pageview: false, flush_at: 1 });
  return client;
}

async function render(node: ReactNode): Promise<void> {
  await act(async () => page.root.render(node));
}

/** Renders the hooks' values into the DOM as JSON, and counts renders. */
function Probe({ flag, renders }: { flag: string; renders?: { count: number } }) {
  const enabled = useFeatureFlagEnabled(flag);
  const variant = useFeatureFlagVariantKey(flag);
  const payload = useFeatureFlagPayload(flag);
  const active = useActiveFeatureFlags();
  const result = useFeatureFlagResult(flag);
  if (renders) renders.count++;
  return createElement('pre', { id: 'probe' }, JSON.stringify({ enabled, variant, payload, active, result }) ?? '');
}

const probe = () => JSON.parse(page.container.querySelector('#probe')!.textContent!);

describe('flag hooks', () => {
  it('are undefined until flags are known, then re-render with them', async () => {
    page.server.setFlags({ beta: 'test', off: false }, { beta: '{"color":"red"}' });
    const client = newClient(false);
    await render(createElement(PostHogProvider, { client }, createElement(Probe, { flag: 'beta' })));
    expect(probe()).toEqual({});
    await act(async () => void client.init(`phc_react_${++keyCounter}`, { api_host: page.server.url, capture_pageview: false }));
    await act(() => until(() => probe().variant, 'flags to arrive'));
    expect(probe()).toEqual({
      enabled: true,
      variant: 'test',
      payload: { color: 'red' },
      active: ['beta'],
      result: { key: 'beta', enabled: true, variant: 'test', payload: { color: 'red' } },
    });
  });

  it('follow a change of flags, and record $feature_flag_called once per value', async () => {
    page.server.setFlags({ beta: true });
    const client = newClient();
    const renders = { count: 0 };
    await render(createElement(PostHogProvider, { client }, createElement(Probe, { flag: 'beta', renders })));
    await act(() => until(() => probe().enabled === true, 'beta on'));
    const settled = renders.count;
    // No flag change, no render: the payload and list snapshots keep their identity.
    await act(async () => void (await new Promise((resolve) => setTimeout(resolve, 50))));
    expect(renders.count).toBe(settled);

    page.server.setFlags({ beta: false });
    await act(async () => client.reloadFeatureFlags());
    await act(() => until(() => probe().enabled === false, 'beta off'));
    expect(probe().active).toEqual([]);
    await client.flush();
    const calls = () => page.server.events.filter((e) => e.event === '$feature_flag_called' && e.properties.$feature_flag === 'beta');
    await until(() => calls().length === 2, 'two $feature_flag_called');
    expect(calls().map((e) => e.properties.$feature_flag_response)).toEqual([true, false]);
  });

  it('do not record a call before flags are known', async () => {
    page.server.setFlags({ beta: true });
    const client = newClient(false);
    await render(createElement(PostHogProvider, { client }, createElement(Probe, { flag: 'beta' })));
    await act(
      async () => void client.init(`phc_react_${++keyCounter}`, { api_host: page.server.url, capture_pageview: false, flush_at: 1 }),
    );
    await act(() => until(() => probe().enabled === true, 'beta on'));
    await client.flush();
    await until(() => page.server.events.some((e) => e.event === '$feature_flag_called'), 'the call');
    expect(page.server.events.filter((e) => e.event === '$feature_flag_called')).toHaveLength(1);
  });

  it('read the nearest provider when two are nested', async () => {
    page.server.setFlags({ beta: 'outer' });
    const outer = newClient();
    const second = await startFlagServer();
    second.setFlags({ beta: 'inner' });
    const inner = createHogtail();
    inner.init(`phc_react_${++keyCounter}`, { api_host: second.url, capture_pageview: false });
    const Clients = () => createElement('i', { id: 'same' }, String(usePostHog() === inner));
    await render(
      createElement(
        PostHogProvider,
        { client: outer },
        createElement(Probe, { flag: 'beta' }),
        createElement(
          'section',
          null,
          createElement(
            PostHogProvider,
            { client: inner },
            createElement('div', { id: 'inner' }, createElement(Clients)),
            createElement(InnerProbe),
          ),
        ),
      ),
    );
    await act(() =>
      until(() => probe().variant === 'outer' && page.container.querySelector('#inner-probe')?.textContent === 'inner', 'both providers'),
    );
    expect(page.container.querySelector('#same')!.textContent).toBe('true');
    await second.close();
  });
});

/** Each hook for flags named after Object.prototype members. */
function PrototypeProbe() {
  const read = (flag: string) => ({
    enabled: useFeatureFlagEnabled(flag),
    variant: useFeatureFlagVariantKey(flag),
    payload: useFeatureFlagPayload(flag),
  });
  const values = { proto: read('__proto__'), toString: read('toString'), ctor: read('constructor'), active: useActiveFeatureFlags() };
  return createElement('pre', { id: 'prototype-probe' }, JSON.stringify(values));
}

describe('flag keys named after Object.prototype members', () => {
  it('a flag named __proto__ is a flag; toString and constructor are no flags, not inherited functions', async () => {
    // Parsed from text, as a server's answer is: `__proto__` is a key, not a prototype.
    page.server.setFlags(
      JSON.parse('{"__proto__": "x", "beta": true}') as Record<string, string>,
      JSON.parse('{"__proto__": "{\\"n\\":1}"}') as Record<string, string>,
    );
    const client = newClient();
    await render(createElement(PostHogProvider, { client }, createElement(PrototypeProbe)));
    const read = () => JSON.parse(page.container.querySelector('#prototype-probe')!.textContent!) as Record<string, unknown>;
    await act(() => until(() => (read().active as string[] | undefined)?.length === 2, 'flags to arrive'));
    expect(read()).toEqual({
      proto: { enabled: true, variant: 'x', payload: { n: 1 } },
      toString: { enabled: false },
      ctor: { enabled: false },
      active: ['__proto__', 'beta'],
    });
  });
});

function InnerProbe() {
  return createElement('b', { id: 'inner-probe' }, String(useFeatureFlagVariantKey('beta') ?? ''));
}

describe('PostHogProvider', () => {
  it('with apiKey initialises the default instance once, also under StrictMode', async () => {
    const hogtail = (await import('hogtail')).default;
    let inits = 0;
    const init = hogtail.init;
    hogtail.init = ((...args: Parameters<Hogtail['init']>) => {
      inits++;
      return init(...args);
    }) as Hogtail['init'];
    page.server.setFlags({ beta: true });
    const options = { api_host: page.server.url, capture_pageview: false as const };
    const apiKey = `phc_react_${++keyCounter}`;
    const App = () => createElement(PostHogProvider, { apiKey, options }, createElement(Probe, { flag: 'beta' }));
    await render(createElement(StrictMode, null, createElement(App)));
    await act(() => until(() => probe().enabled === true, 'flags through the default instance'));
    // A re-render with an equal (new) options object is no change.
    await render(createElement(StrictMode, null, createElement(App)));
    expect(inits).toBe(1);
  });
});
