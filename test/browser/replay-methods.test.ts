// @vitest-environment happy-dom
// Session replay's methods before the recorder file is there (issue #24): startSessionRecording()
// asks for the recorder (a <script> from api_host's /static/ for npm builds) and clears
// disable_session_recording as posthog-js does; get_session_replay_url() is PostHog's URL of the
// session's recording; the replay options no longer warn as unsupported. The recording itself is
// checked in Chromium (test/e2e/replay.test.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHogtail } from '../../src/browser/api/drop-in';
import type { HogtailConfig } from '../../src/browser/hogtail';

let KEY = 'phc_replay';
let tests = 0;
const init = (config: HogtailConfig = {}) => {
  const client = createHogtail();
  client.on('error', () => {});
  return client.init(KEY, { capture_pageview: false, advanced_disable_flags: true, autocapture: false, ...config });
};
const recorderScripts = () =>
  [...document.querySelectorAll('script')].map((script) => script.src).filter((src) => src.includes('recorder'));

describe('session replay methods', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    document.head.innerHTML = '';
    KEY = `phc_replay_${++tests}`;
  });
  afterEach(() => vi.restoreAllMocks());

  it('startSessionRecording() loads the recorder once, even when init() disabled recording; no "not supported" warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const client = init({ api_host: 'https://eu.i.posthog.com', disable_session_recording: true });
    expect(recorderScripts()).toEqual([]);
    client.startSessionRecording();
    client.startSessionRecording({ sampling: true });
    expect(recorderScripts()).toEqual(['https://eu.i.posthog.com/static/hogtail.recorder.js']);
    expect(client.sessionRecordingStarted()).toBe(false); // the file has not run
    client.stopSessionRecording();
    expect(warn.mock.calls.flat().join('\n')).not.toMatch(/not supported|session_recording|disable_session_recording/);
  });

  it('the replay options are acted on, not warned about', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    init({ disable_session_recording: false, session_recording: { maskAllInputs: true }, enable_recording_console_log: true });
    expect(warn).not.toHaveBeenCalled();
  });

  it('onSessionId() tells the window id with the session id, as posthog-js does: the same as the events carry', () => {
    const client = init();
    const told: [string, unknown][] = [];
    client.onSessionId((sessionId, windowId) => told.push([sessionId, windowId]));
    const event = client.capture('seen');
    expect(told).toEqual([[event!.properties.$session_id, event!.properties.$window_id]]);
    expect(typeof told[0]![1]).toBe('string');
  });

  it("get_session_replay_url() is PostHog's page of the session's recording: ui_host, else api_host's app host", () => {
    const cloud = init({ api_host: 'https://us.i.posthog.com/' });
    const session = cloud.get_session_id();
    expect(cloud.get_session_replay_url()).toBe(`https://us.posthog.com/project/${KEY}/replay/${session}`);
    expect(cloud.get_session_replay_url({ withTimestamp: true })).toBe(`https://us.posthog.com/project/${KEY}/replay/${session}?t=0`);

    KEY = `phc_replay_${++tests}`;
    const proxied = init({ api_host: 'https://ph.example.com', ui_host: 'https://eu.posthog.com' });
    expect(proxied.get_session_replay_url()).toBe(`https://eu.posthog.com/project/${KEY}/replay/${proxied.get_session_id()}`);
  });
});
