import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDevCommand, type DevCommandIo } from '../../src/cli/dev-command';
import type { DevServer } from '../../src/devserver';
import { aBatch, anEvent, postJson } from './helpers';
import { devHarness, getJson } from './dev-support';

const harness = devHarness();
afterEach(() => harness.cleanup());

function captureIo(signal?: AbortSignal) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  let listening: ((server: DevServer) => void) | undefined;
  const started = new Promise<DevServer>((resolve) => (listening = resolve));
  const io: DevCommandIo = {
    stdout: (text) => stdout.push(text),
    stderr: (text) => stderr.push(text),
    ...(signal ? { signal } : {}),
    onListening: (server) => listening?.(server),
  };
  return { io, stdout, stderr, started };
}

describe('hogtail dev (command)', () => {
  it('starts, prints where everything is, serves flags, keeps events in --data, and stops on the signal', async () => {
    const dataDir = harness.tempDir();
    const flags = join(dataDir, 'flags.json');
    writeFileSync(flags, JSON.stringify([{ key: 'beta', rollout_percentage: 100 }]));

    const stop = new AbortController();
    const { io, stdout, stderr, started } = captureIo(stop.signal);
    const exit = runDevCommand(['--port', '0', '--data', dataDir, `--flags=${flags}`], io);
    const server = await started;
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stdout.join('\n')).toContain(`listening on ${server.url}`);
    expect(stdout.join('\n')).toContain(`data            ${dataDir}`);
    expect(stdout.join('\n')).toMatch(/flags.*\(1 flags, re-read on change\)/);

    const decide = await postJson(`${server.url}/decide/?v=3`, { token: 'phc_key', distinct_id: 'u' });
    expect(JSON.parse(decide.text).featureFlags).toEqual({ beta: true });
    await postJson(`${server.url}/batch/`, aBatch([anEvent({ event: 'from-command' })]));
    await postJson(`${server.url}/batch/`, { batch: [anEvent()] });
    expect(stderr).toContainEqual(expect.stringMatching(/^hogtail dev: rejected POST \/batch\/ with 401: the project API key is missing/));

    stop.abort();
    expect(await exit).toBe(0);

    // Same --data again: the event is still there.
    const again = new AbortController();
    const second = captureIo(again.signal);
    const secondExit = runDevCommand(['--port', '0', '--data', dataDir], second.io);
    const restarted = await second.started;
    expect(second.stdout.join('\n')).toContain('restored        1 events and 1 rejections from earlier runs');
    const listed = await getJson<{ events: Array<{ event: string }> }>(`${restarted.url}/_dev/events`);
    expect(listed.events.map((event) => event.event)).toEqual(['from-command']);
    again.abort();
    expect(await secondExit).toBe(0);
  });

  it('uses a fresh temporary directory without --data', async () => {
    const stop = new AbortController();
    const { io, stdout, started } = captureIo(stop.signal);
    const exit = runDevCommand(['--port', '0'], io);
    const server = await started;
    expect(server.dataDir).toMatch(/hogtail-dev-/);
    expect(stdout.join('\n')).toContain(`pass --data ${server.dataDir} to keep events across restarts`);
    stop.abort();
    expect(await exit).toBe(0);
    rmSync(server.dataDir, { recursive: true, force: true });
  });

  it.each([
    [['--port', 'abc'], /--port must be a port number/],
    [['--flags'], /--flags needs a value/],
    [['--verbose'], /unknown option --verbose/],
    [['stray'], /unexpected argument 'stray'/],
  ])('exits 2 on %j', async (args, message) => {
    const { io, stderr } = captureIo(AbortSignal.abort());
    expect(await runDevCommand(args, io)).toBe(2);
    expect(stderr.join('\n')).toMatch(message);
  });

  it('exits 1 with the problems when the flags file is unusable', async () => {
    const dataDir = harness.tempDir();
    const flags = join(dataDir, 'flags.json');
    writeFileSync(flags, JSON.stringify([{ key: 'beta', rollout_percentage: 'most' }]));
    const { io, stderr } = captureIo(AbortSignal.abort());
    expect(await runDevCommand(['--port', '0', '--data', dataDir, '--flags', flags], io)).toBe(1);
    expect(stderr.join('\n')).toMatch(/could not start: invalid flag definitions:\n {2}flags\[0\] \(beta\).*rollout_percentage/);
  });

  it('warns before binding anything but loopback', async () => {
    // 192.0.2.1 (TEST-NET-1) is no address of this machine, so nothing is ever exposed by the test.
    const { io, stderr } = captureIo(AbortSignal.abort());
    expect(await runDevCommand(['--port', '0', '--data', harness.tempDir(), '--host', '192.0.2.1'], io)).toBe(1);
    expect(stderr[0]).toMatch(/WARNING: binding 192\.0\.2\.1, not loopback/);
    expect(stderr.join('\n')).toMatch(/could not start/);
  });

  it('prints usage for --help', async () => {
    const { io, stdout } = captureIo();
    expect(await runDevCommand(['--help'], io)).toBe(0);
    expect(stdout.join('\n')).toMatch(/^Usage: hogtail dev/);
  });
});
