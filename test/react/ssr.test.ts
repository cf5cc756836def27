// @vitest-environment node
// Server rendering: no window at all. Flags are undefined unless bootstrap supplies them; string
// and streaming renders agree.
import { createElement } from 'react';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  PostHogFeature,
  PostHogProvider,
  useActiveFeatureFlags,
  useFeatureFlagEnabled,
  useFeatureFlagPayload,
  useFeatureFlagVariantKey,
} from '../../src/react';

function Probe() {
  const values = {
    enabled: useFeatureFlagEnabled('beta'),
    variant: useFeatureFlagVariantKey('beta'),
    payload: useFeatureFlagPayload('beta'),
    active: useActiveFeatureFlags(),
  };
  return createElement('pre', null, JSON.stringify(values));
}

const bootstrap = { featureFlags: { beta: 'wide', off: false }, featureFlagPayloads: { beta: { columns: 3 } } };

function page(withBootstrap: boolean) {
  const options = { api_host: 'http://127.0.0.1:1', ...(withBootstrap ? { bootstrap } : {}) };
  return createElement(
    PostHogProvider,
    { apiKey: 'phc_ssr', options },
    createElement(Probe),
    createElement(PostHogFeature, {
      flag: 'beta',
      match: 'wide',
      fallback: createElement('em', null, 'narrow'),
      children: createElement('strong', null, 'wide layout'),
    }),
  );
}

function streamed(node: ReturnType<typeof page>): Promise<string> {
  return new Promise((resolve, reject) => {
    const sink = new PassThrough();
    let html = '';
    sink.on('data', (chunk) => (html += chunk));
    sink.on('end', () => resolve(html));
    const stream = renderToPipeableStream(node, { onAllReady: () => stream.pipe(sink), onError: reject });
  });
}

const decode = (html: string) => html.replaceAll('&quot;', '"');

describe('server rendering', () => {
  it('runs where there is no window', () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
  });

  it('renders flags as undefined without bootstrap (fallbacks shown)', async () => {
    const html = decode(renderToString(page(false)));
    expect(html).toContain('<pre>{}</pre>');
    expect(html).toContain('<em>narrow</em>');
    expect(decode(await streamed(page(false)))).toContain('<pre>{}</pre>');
  });

  it('renders the bootstrap flags when given', async () => {
    const expected = '<pre>{"enabled":true,"variant":"wide","payload":{"columns":3},"active":["beta"]}</pre>';
    expect(decode(renderToString(page(true)))).toContain(expected);
    const html = decode(await streamed(page(true)));
    expect(html).toContain(expected);
    expect(html).toContain('wide layout');
  });
});

describe('bootstrap flags named after Object.prototype members', () => {
  it('reads own entries only: toString and constructor are no flags, __proto__ is one', () => {
    function PrototypeProbe() {
      // typeof: JSON would turn an inherited function into null and hide it.
      const values = ['toString', 'constructor', '__proto__'].map((flag) => [
        typeof useFeatureFlagVariantKey(flag),
        typeof useFeatureFlagPayload(flag),
        useFeatureFlagEnabled(flag) ?? null,
      ]);
      return createElement('pre', null, JSON.stringify(values));
    }
    // Parsed from text, as a page's server-rendered bootstrap is.
    const flags = JSON.parse(
      '{"featureFlags": {"__proto__": "wide"}, "featureFlagPayloads": {"__proto__": {"columns": 3}}}',
    ) as typeof bootstrap;
    const html = decode(
      renderToString(
        createElement(
          PostHogProvider,
          { apiKey: 'phc_ssr', options: { api_host: 'http://127.0.0.1:1', bootstrap: flags } },
          createElement(PrototypeProbe),
        ),
      ),
    );
    expect(html).toContain('<pre>[["undefined","undefined",null],["undefined","undefined",null],["string","object",true]]</pre>');
  });
});
