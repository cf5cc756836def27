// @vitest-environment happy-dom
// Hydrating server-rendered HTML: with bootstrap flags the first client render matches the server
// (no mismatch reported), then the client's own flags take over.
import { act, createElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PostHogProvider, useFeatureFlagVariantKey } from '../../src/react';
import { startFlagServer, until, type FlagServer } from './flag-server';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let server: FlagServer;
beforeEach(async () => {
  localStorage.clear();
  server = await startFlagServer();
});
afterEach(() => server.close());

const Variant = () => createElement('span', { id: 'variant' }, String(useFeatureFlagVariantKey('layout') ?? 'none'));

it('hydrates bootstrap flags without a mismatch, then follows the server', async () => {
  server.setFlags({ layout: 'grid' });
  const options = { api_host: server.url, capture_pageview: false as const, bootstrap: { featureFlags: { layout: 'list' } } };
  const tree = () => createElement(PostHogProvider, { apiKey: 'phc_hydrate', options }, createElement(Variant));
  const container = document.createElement('div');
  container.innerHTML = renderToString(tree());
  document.body.append(container);
  expect(container.textContent).toBe('list');

  const problems: unknown[] = [];
  const consoleError = console.error;
  console.error = (...args: unknown[]) => void problems.push(args);
  try {
    const root = await act(async () => hydrateRoot(container, tree(), { onRecoverableError: (error) => void problems.push(error) }));
    await act(() => until(() => container.textContent === 'grid', 'the server flags after hydration'));
    await act(async () => root.unmount());
  } finally {
    console.error = consoleError;
  }
  expect(problems).toEqual([]);
});
