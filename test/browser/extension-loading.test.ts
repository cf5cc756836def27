// @vitest-environment happy-dom
// disable_external_dependency_loading (issue 28): as posthog-js loads none of its lazy files with it,
// the extension loader adds no <script> for an extension the options or the project turn on, and
// says once why it stays off. The client is built with a probe entry in the loader's list (LOADABLE
// is empty until the first extension ships), so this suite runs against the source only.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fullBuild } from '../../src/browser/api/drop-in';
import { createClient } from '../../src/browser/client';
import { extensionsFeature } from '../../src/browser/features/extensions';
import type { HogtailConfig } from '../../src/browser/hogtail';

let KEY = 'phc_loading';
let tests = 0;
beforeEach(() => {
  KEY = `phc_loading_${++tests}`;
});
afterEach(() => vi.restoreAllMocks());

describe('disable_external_dependency_loading', () => {
  const probe = { probe: { file: 'hogtail.probe.js', wanted: () => true } };
  const scripts = () => [...document.querySelectorAll('script')].map((script) => script.getAttribute('src'));

  function client(config: HogtailConfig) {
    const build = fullBuild();
    const made = createClient({ ...build, features_: [...build.features_.slice(0, -1), extensionsFeature(probe, 'http://127.0.0.1:9/')] });
    made.on('error', () => {});
    made.init(KEY, { api_host: 'https://collector.test', capture_pageview: false, advanced_disable_flags: true, ...config });
  }

  it('adds no <script> for a wanted extension, and says once why it stays off', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    client({ disable_external_dependency_loading: true });
    expect(scripts()).not.toContain('http://127.0.0.1:9/hogtail.probe.js');
    expect(warn.mock.calls.flat().join(' ')).toContain('extension probe not loaded: disable_external_dependency_loading is set');
  });

  it('without it, the same extension is fetched from next to the script tag', () => {
    client({});
    expect(scripts()).toContain('http://127.0.0.1:9/hogtail.probe.js');
  });
});
