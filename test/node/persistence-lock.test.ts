// One writer per persistence path: a live owner is refused with a clear error, a dead one's lock is
// taken over. Real processes give the pids; nothing is mocked.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { PostHog } from '../../src/node';
import { createCollector, type Collector } from '../../src/devserver';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(lockContent: string) {
  const dir = mkdtempSync(join(tmpdir(), 'hogtail-lock-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'hogtail.lock'), lockContent);
  const collector = await createCollector();
  cleanups.push(() => collector.close());
  return { dir, collector };
}

function start(dir: string, collector: Collector) {
  const client = new PostHog('phc_test', { host: collector.url, flushOnExitTimeout: 0, persistence: { type: 'file', path: dir } });
  cleanups.push(() => client.shutdown(0));
  return client;
}

const lockOwner = (dir: string) => (JSON.parse(readFileSync(join(dir, 'hogtail.lock'), 'utf8')) as { pid: number }).pid;

async function takesOver(dir: string, collector: Collector) {
  const client = start(dir, collector);
  expect(lockOwner(dir)).toBe(process.pid);
  client.capture({ distinctId: 'u', event: 'after takeover' });
  await client.flush();
  expect(collector.events.map((e) => e.event)).toEqual(['after takeover']);
}

it('a lock held by a process that has exited is taken over', async () => {
  const dead = spawnSync(process.execPath, ['-e', '']);
  expect(dead.status).toBe(0);
  const { dir, collector } = await setup(JSON.stringify({ pid: dead.pid, hostname: 'h', since: '2024-01-01T00:00:00Z' }) + '\n');
  await takesOver(dir, collector);
});

it('a lock held by a live process makes the constructor throw, naming the path and the pid', async () => {
  const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  cleanups.push(() => owner.kill('SIGKILL'));
  const { dir, collector } = await setup(JSON.stringify({ pid: owner.pid }) + '\n');
  expect(() => start(dir, collector)).toThrow(
    expect.objectContaining({
      name: 'PersistenceError',
      reason: 'locked',
      message: expect.stringContaining(`${dir} is in use by process ${owner.pid} (lock file ${join(dir, 'hogtail.lock')})`),
    }),
  );
  // Refused means untouched: the owner keeps its lock.
  expect(lockOwner(dir)).toBe(owner.pid);
});

it('our own pid in a lock we do not hold is an earlier incarnation (a restarted container) and is taken over', async () => {
  const { dir, collector } = await setup(JSON.stringify({ pid: process.pid }) + '\n');
  await takesOver(dir, collector);
});

it('a damaged lock file proves no owner and is taken over', async () => {
  const { dir, collector } = await setup('\u0000\u0000garbage');
  await takesOver(dir, collector);
});
