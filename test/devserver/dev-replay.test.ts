// hogtail dev and session replay (issue #24), over real HTTP: the remote config turns recording on
// (off with the sessionRecording option, the CLI's --no-recordings), `/s/` takes gzip'd `$snapshot`
// batches, `/_dev/recordings` lists the sessions and gives one's rrweb events in order, and the
// player page and rrweb's player are served by the dev server itself, behind its Host check.
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { aBatch, anEvent, KEY, post } from './helpers';
import { devHarness, getJson } from './dev-support';

const harness = devHarness();
afterEach(() => harness.cleanup());

const snapshot = (sessionId: string, windowId: string, timestamps: number[]) =>
  anEvent({
    event: '$snapshot',
    properties: {
      $session_id: sessionId,
      $window_id: windowId,
      $snapshot_bytes: 100,
      $snapshot_data: timestamps.map((timestamp) => ({ type: 3, data: { source: 2 }, timestamp })),
    },
  });

/** fetch() cannot set Host: a plain request can, as a DNS-rebinding page's would arrive. */
const statusWithHost = (url: string, host: string) =>
  new Promise<number | undefined>((resolve, reject) => {
    request(url, { headers: { Host: host } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    })
      .on('error', reject)
      .end();
  });

const flagsAnswer = async (url: string) => {
  const reply = await fetch(`${url}/flags/?v=2&config=true`, { method: 'POST', body: JSON.stringify({ token: KEY, distinct_id: 'u1' }) });
  return (await reply.json()) as Record<string, unknown>;
};

describe('hogtail dev: session replay', () => {
  it('turns recording on in its remote config by default, and off when asked', async () => {
    const { server: on } = await harness.start({ dataDir: harness.tempDir() });
    expect((await flagsAnswer(on.url)).sessionRecording).toEqual({
      endpoint: '/s/',
      consoleLogRecordingEnabled: true,
      networkPayloadCapture: { recordHeaders: true, recordBody: true },
    });
    expect(await (await fetch(`${on.url}/array/${KEY}/config`)).json()).toMatchObject({ sessionRecording: { endpoint: '/s/' } });
    const { server: off } = await harness.start({ dataDir: harness.tempDir(), sessionRecording: false });
    expect((await flagsAnswer(off.url)).sessionRecording).toBe(false);
    expect(await (await fetch(`${off.url}/array/${KEY}/config`)).json()).toMatchObject({ sessionRecording: false });
  });

  it("stores gzip'd snapshots sent to /s/, lists them per session and gives a session's events in order", async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    const body = gzipSync(JSON.stringify(aBatch([snapshot('s1', 'w1', [30, 10]), snapshot('s1', 'w1', [20]), snapshot('s2', 'w9', [5])])));
    expect((await post(`${server.url}/s/?compression=gzip-js`, body, { 'Content-Type': 'text/plain' })).status).toBe(200);

    const { recordings } = await getJson<{ recordings: { sessionId: string; events: number; start: number; end: number }[] }>(
      `${server.url}/_dev/recordings`,
    );
    expect(recordings.map(({ sessionId, events, start, end }) => ({ sessionId, events, start, end }))).toEqual([
      { sessionId: 's1', events: 3, start: 10, end: 30 },
      { sessionId: 's2', events: 1, start: 5, end: 5 },
    ]);
    const one = await getJson<{ events: { timestamp: number }[] }>(`${server.url}/_dev/recordings/s1`);
    expect(one.events.map((event) => event.timestamp)).toEqual([10, 20, 30]);
  });

  it('lists each tab of a session recorded in two, and plays the first recorded unless asked for another', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    // The second tab's batch arrives first: the first recorded tab is the one whose events start first.
    const body = gzipSync(JSON.stringify(aBatch([snapshot('s3', 'w2', [50, 60]), snapshot('s3', 'w1', [40]), snapshot('s3', 'w2', [70])])));
    expect((await post(`${server.url}/s/?compression=gzip-js`, body, { 'Content-Type': 'text/plain' })).status).toBe(200);

    const { recordings } = await getJson<{ recordings: { windows: number; tabs: unknown[] }[] }>(`${server.url}/_dev/recordings`);
    expect(recordings.map(({ windows, tabs }) => ({ windows, tabs }))).toEqual([
      {
        windows: 2,
        tabs: [
          { windowId: 'w1', start: 40, events: 1 },
          { windowId: 'w2', start: 50, events: 3 },
        ],
      },
    ]);
    type Tab = { windowId: string; windowIds: string[]; events: { timestamp: number }[] };
    const played = (tab: Tab) => ({
      windowId: tab.windowId,
      windowIds: tab.windowIds,
      timestamps: tab.events.map((event) => event.timestamp),
    });
    expect(played(await getJson<Tab>(`${server.url}/_dev/recordings/s3`))).toEqual({
      windowId: 'w1',
      windowIds: ['w1', 'w2'],
      timestamps: [40],
    });
    expect(played(await getJson<Tab>(`${server.url}/_dev/recordings/s3?window=w2`))).toEqual({
      windowId: 'w2',
      windowIds: ['w1', 'w2'],
      timestamps: [50, 60, 70],
    });
  });

  it("serves the player page and rrweb's player itself; refuses a bad session id and a foreign Host", async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    const page = await fetch(`${server.url}/_dev/replay/s1`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self' 'nonce-/);
    expect(await page.text()).toContain('/_dev/replay/rrweb-replay.js');
    const player = await fetch(`${server.url}/_dev/replay/rrweb-replay.js`);
    expect(player.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await player.text()).toContain('rrwebReplay');
    expect((await fetch(`${server.url}/_dev/replay/rrweb-replay.css`)).status).toBe(200);
    expect((await fetch(`${server.url}/_dev/replay/%3Cscript%3E`)).status).toBe(400);
    // The recorder itself, for clients that load it from api_host's /static/ (the npm build).
    const recorder = await fetch(`${server.url}/static/hogtail.recorder.js`);
    expect([recorder.status, recorder.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(await recorder.text()).toContain('__hogtailExtensions');
    expect(await statusWithHost(`${server.url}/_dev/recordings`, 'evil.example:8010')).toBe(403);
    expect(await statusWithHost(`${server.url}/_dev/replay/s1`, 'evil.example:8010')).toBe(403);
  });
});
