// hogtail dev under hostile input: the DNS-rebinding guard on the management endpoints, restart with
// a day file too big for one string, deep nesting, invalid UTF-8, stalled page readers, and terminal
// escapes in log lines.
import { appendFileSync, readdirSync, truncateSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEV_PERSONAL_API_KEY } from '../../src/devserver/management';
import { aBatch, anEvent, KEY, post, postJson } from './helpers';
import { devHarness, getJson, waitFor } from './dev-support';

const harness = devHarness();
afterEach(() => harness.cleanup());

function getWithHost(url: string, host: string, headers: Record<string, string> = {}): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { ...headers, Host: host } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('hogtail dev: hardening', () => {
  it('refuses management requests addressed to another host name, as it does for the page', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    const path = `${server.url}/api/environments/1/groups/?group_type_index=0`;
    const auth = { Authorization: `Bearer ${DEV_PERSONAL_API_KEY}` };
    expect(await getWithHost(path, 'evil.example:8010', auth)).toBe(403);
    expect(await getWithHost(path, `localhost:${server.port}`, auth)).toBe(200);
  });

  it('restarts with a day file over 512 MB, reading it as a stream and skipping the damage', async () => {
    const dataDir = harness.tempDir();
    const first = await harness.start({ dataDir });
    await postJson(`${first.server.url}/batch/`, aBatch([anEvent({ event: 'before the hole' })]));
    await harness.stop(first.server);
    const file = join(dataDir, readdirSync(dataDir).find((name) => name.startsWith('events-')) ?? '');
    // A sparse hole: 600 MB of NUL bytes on no disk space, one "line" far too long to be a record.
    truncateSync(file, statSync(file).size + 600 * 1024 * 1024);
    appendFileSync(
      file,
      `\n${JSON.stringify({ ...anEvent({ event: 'after the hole' }), api_key: KEY, receivedAt: new Date().toISOString() })}\n`,
    );
    expect(statSync(file).size).toBeGreaterThan(512 * 1024 * 1024);

    const second = await harness.start({ dataDir });
    expect(second.server.store.loaded).toEqual({ events: 2, rejections: 0, skippedLines: 1 });
    expect(second.server.store.events().map((event) => event.event)).toEqual(['before the hole', 'after the hole']);
  });

  it('answers 400, not 500, for JSON nested 20,000 levels deep', async () => {
    const { server, log } = await harness.start({ dataDir: harness.tempDir() });
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const body = `{"api_key":"${KEY}","batch":[{"event":"deep","distinct_id":"u","properties":${deep}}]}`;
    const reply = await post(`${server.url}/batch/`, body);
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(/nested deeper than 128 levels/);
    expect(log[0]).toMatch(/^rejected POST \/batch\/ with 400: the JSON is nested deeper/);
  });

  it('flags events whose name or distinct id was not valid UTF-8, on the event and in the log', async () => {
    const { server, log } = await harness.start({ dataDir: harness.tempDir() });
    const head = Buffer.from(`{"api_key":"${KEY}","batch":[{"event":"bad `);
    const tail = Buffer.from(`name","distinct_id":"user-1","properties":{}},{"event":"fine","distinct_id":"user-1","properties":{}}]}`);
    const reply = await post(`${server.url}/batch/`, new Uint8Array(Buffer.concat([head, Buffer.from([0xff, 0xfe]), tail])));
    expect(reply.status).toBe(200);
    const listed = await getJson<{ events: Array<{ event: string; warnings?: string[] }> }>(`${server.url}/_dev/events`);
    expect(listed.events[0]?.event).toBe('bad \uFFFD\uFFFDname');
    expect(listed.events[0]?.warnings).toEqual(['event name had bytes that are not UTF-8, shown as \uFFFD']);
    expect(listed.events[1]?.warnings).toBeUndefined();
    expect(log.join('\n')).toMatch(/accepted 1 event\(s\) on \/batch\/ whose name or distinct id was not valid UTF-8/);
  });

  it('keeps the start of each refused body for the page, describing one that is not text', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    const long = `{"api_key": "${KEY}", "batch": [${'1,'.repeat(2_000)}`;
    await post(`${server.url}/batch/`, long);
    await post(`${server.url}/batch/`, new Uint8Array([0x1f, 0x8b, 0xff, 0xfe, 0x00, 0x01]));
    const [json, gzip] = server.store.rejections();
    expect(json?.sample).toBe(long.slice(0, 2_000));
    expect(gzip?.reason).toMatch(/could not be inflated/);
    expect(gzip?.sample).toBe('(6 bytes that are not text)');
  });

  it('escapes control characters from request bodies in its log lines', async () => {
    const { server, log } = await harness.start({ dataDir: harness.tempDir() });
    await post(`${server.url}/batch/`, '{"api_key": \u001b[2J\u001b]0;pwned\u0007');
    expect(log).toHaveLength(1);
    // eslint-disable-next-line no-control-regex -- the assertion is that no control character reaches the log
    expect(log[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(log[0]).toContain('\\x1b[2J');
  });

  it('cuts the live stream of a page that stopped reading instead of buffering for it without end', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    const socket = connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET /_dev/stream HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    socket.pause();
    let closed = false;
    socket.on('close', () => (closed = true));

    // About 40 MB of events for a reader that takes none of them.
    const big = 'x'.repeat(900_000);
    for (let round = 0; round < 4; round++) {
      const events = Array.from({ length: 11 }, () => anEvent({ properties: { big } }));
      expect((await postJson(`${server.url}/batch/`, aBatch(events))).status).toBe(200);
    }
    socket.resume();
    socket.on('data', () => {});
    await waitFor(() => (closed ? true : undefined), 'the server to end the stalled stream');
  });
  it('answers a /flags request whose person property meets a catastrophically backtracking regex, and keeps serving', async () => {
    const flags = [
      { key: 'corp-staff', properties: [{ key: 'email', operator: 'regex', value: '^([\\w.]+)+@corp\\.com$' }] },
      { key: 'a-run', properties: [{ key: 'name', operator: 'regex', value: '^(a+)+$' }] },
    ];
    const { server } = await harness.start({ dataDir: harness.tempDir(), flags });
    // Any web page can send this: with a backtracking engine one request would freeze the server for hours.
    const hostile = { email: 'john.smith.'.repeat(4) + '@corp.co', name: 'a'.repeat(50) + '!' };
    const reply = await postJson(`${server.url}/flags/?v=2`, { token: KEY, distinct_id: 'visitor', person_properties: hostile });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toMatchObject({
      errorsWhileComputingFlags: false,
      featureFlags: { 'corp-staff': false, 'a-run': false },
    });
    const staff = await postJson(`${server.url}/flags/?v=2`, {
      token: KEY,
      distinct_id: 'staff',
      person_properties: { email: 'john.smith@corp.com', name: 'aaa' },
    });
    expect(JSON.parse(staff.text)).toMatchObject({ featureFlags: { 'corp-staff': true, 'a-run': true } });
  });

  it('refuses a flags file whose regex needs a backtracking engine, saying which part', async () => {
    const flags = [{ key: 'no-admins', properties: [{ key: 'name', operator: 'regex', value: '^(?!admin)' }] }];
    await expect(harness.start({ dataDir: harness.tempDir(), flags })).rejects.toThrow(/lookahead or lookbehind.*linear time/);
  });

  it('answers flags named __proto__ and constructor as flags, with their payloads', async () => {
    const flags = JSON.parse(
      '[{"key": "__proto__", "rollout_percentage": 100}, {"key": "constructor", "rollout_percentage": 100, "payloads": {"true": {"a": 1}}}]',
    ) as unknown;
    const { server } = await harness.start({ dataDir: harness.tempDir(), flags });
    const reply = JSON.parse(
      (await postJson(`${server.url}/flags/?v=2`, { token: KEY, distinct_id: 'u', groups: JSON.parse('{"__proto__": "x"}') as unknown }))
        .text,
    ) as Record<string, Record<string, unknown>>;
    expect(Object.keys(reply.featureFlags!).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.keys(reply.flags!).sort()).toEqual(['__proto__', 'constructor']);
    expect(reply.featureFlagPayloads).toEqual({ constructor: '{"a":1}' });
  });
});
