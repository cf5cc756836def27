// The crash the file queue exists for: a process capturing in a loop is SIGKILLed, and a new client
// on its path delivers every event the dead one had accepted from capture(). Also a disk that fills
// up mid-run. Real child processes running the built package, a real collector.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { createCollector } from '../../src/devserver';
import { PostHog, type HogtailError } from '../../src/node';
import { ensureBuilt, repoRoot } from '../support/built';
import { createFaultCollector, type Fault, type FaultCollector } from '../support/fault-collector';

let entry = '';
beforeAll(() => {
  entry = ensureBuilt();
  // ensureBuilt() builds only a missing dist/; a dist/ older than the sources it runs would test old code.
  const newest = Math.max(
    ...['src/core', 'src/node', 'src/node/persistence'].flatMap((dir) =>
      readdirSync(repoRoot + dir)
        .filter((f) => f.endsWith('.ts'))
        .map((f) => statSync(`${repoRoot}${dir}/${f}`).mtimeMs),
    ),
  );
  if (statSync(entry).mtimeMs < newest) execFileSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hogtail-crash-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function child(code: string, shellPrefix = '') {
  const script = `import { PostHog } from ${JSON.stringify(entry)};\n${code}`;
  const node = [process.execPath, '--input-type=module', '-e', script];
  const proc = shellPrefix ? spawn('/bin/sh', ['-c', `${shellPrefix}; exec "$@"`, 'sh', ...node]) : spawn(node[0]!, node.slice(1));
  cleanups.push(() => proc.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, exited, stdout: () => stdout, stderr: () => stderr };
}

/** Longer than a test may run (vitest.config.ts): a request that times out would be resent. */
const NO_TIMEOUT_MS = 10 * 60_000;

async function until(condition: () => boolean, what: () => string): Promise<void> {
  for (let i = 0; i < 3000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error(`gave up waiting: ${what()}`);
}

it.each(['interval', 'always'] as const)(
  'fsync %s: SIGKILL while capturing in a loop; the next client delivers every event capture() had accepted',
  async (fsync) => {
    const dir = tempDir();
    // About one request in three fails, in every way, so the kill finds events in every state:
    // queued, in flight, retried, and accepted by a server that then answered 500.
    // No request may time out: one the server took but answered after the client stopped waiting
    // would be resent, a duplicate no injected fault explains, and whether that happens depends
    // only on how loaded the machine is. So the deadline is longer than the test may run.
    const faults: Fault[] = [{ kind: 'status', status: 503 }, { kind: 'acceptThen', status: 500 }, { kind: 'reset' }];
    // A loaded machine stops a process for a while at any moment. The fourth request (answered
    // 200) stops the client for a second just as the server answers it: with a deadline shorter
    // than that, the answered request would time out and be resent (the flake this test once had).
    let stallClient = (): void => {};
    const first: FaultCollector = await createFaultCollector({
      plan: (index) => {
        if (index === 3) stallClient();
        return index % 3 === 2 ? faults[((index / 3) % 3) | 0] : undefined;
      },
    });
    cleanups.push(() => first.close());
    const run = child(`
      import { randomUUID } from 'node:crypto';
      const client = new PostHog('phc_k', {
        host: ${JSON.stringify(first.url)}, flushAt: 25, maxBatchSize: 25, requestTimeout: ${NO_TIMEOUT_MS}, flushOnExitTimeout: 0,
        retry: { initialDelayMs: 1, maxDelayMs: 10, maxAttempts: 1000 },
        persistence: { type: 'file', path: ${JSON.stringify(dir)}, fsync: '${fsync}' },
      });
      client.on('error', () => {});
      for (let seq = 0; ; seq++) {
        const uuid = randomUUID();
        client.capture({ distinctId: 'u' + (seq % 7), event: 'crash test', uuid, properties: { seq } });
        // Printed only once capture() has returned: every printed uuid must survive the kill.
        process.stdout.write(uuid + '\\n');
        if (seq % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
      }
    `);
    stallClient = () => {
      run.proc.kill('SIGSTOP');
      setTimeout(() => run.proc.kill('SIGCONT'), 1000);
    };
    const accepted = () => first.log.filter((entry) => entry.accepted).length;
    const faultKinds = () => new Set(first.log.flatMap((entry) => (entry.fault ? [entry.fault.kind] : []))).size;
    // Killed once every fault has happened and a backlog was captured meanwhile.
    await until(
      () => run.stdout().split('\n').length > 1000 && accepted() >= 10 && faultKinds() === faults.length,
      () =>
        `printed ${run.stdout().split('\n').length - 1}, ${accepted()} requests accepted, ${faultKinds()} kinds of fault; stderr: ${run.stderr()}`,
    );
    run.proc.kill('SIGKILL');
    await run.exited;
    // Whole lines only: the last one may have been cut by the kill.
    const printed = run.stdout().split('\n').slice(0, -1);

    const second = await createCollector();
    cleanups.push(() => second.close());
    const client = new PostHog('phc_k', {
      host: second.url,
      requestTimeout: NO_TIMEOUT_MS, // each restored event must arrive exactly once, however slow the answer
      flushOnExitTimeout: 0,
      persistence: { type: 'file', path: dir, fsync },
    });
    cleanups.push(() => client.shutdown(0));
    const errors: HogtailError[] = [];
    client.on('error', (error) => errors.push(error));
    await client.flush();
    await client.shutdown();

    const acceptedBefore = new Map<string, number>();
    const acceptedThenFailed = new Map<string, number>();
    for (const entry of first.log) {
      if (!entry.accepted) continue;
      for (const uuid of entry.uuids) {
        acceptedBefore.set(uuid, (acceptedBefore.get(uuid) ?? 0) + 1);
        if (entry.fault?.kind === 'acceptThen') acceptedThenFailed.set(uuid, (acceptedThenFailed.get(uuid) ?? 0) + 1);
      }
    }
    const resent = new Map<string, number>();
    for (const event of second.events) resent.set(event.uuid!, (resent.get(event.uuid!) ?? 0) + 1);

    // Nothing lost: every printed uuid reached the server, before the kill or after it.
    const missing = printed.filter((uuid) => !acceptedBefore.has(uuid) && !resent.has(uuid));
    expect(missing).toEqual([]);
    // The new client really had work to do, and did it once per event.
    expect(resent.size).toBeGreaterThan(0);
    expect([...resent.values()].every((count) => count === 1)).toBe(true);
    // Duplicates only where the server had already accepted: a second arrival before the kill is a
    // resend after 'accepted then 500'; one after it is an event whose acknowledgement the kill beat.
    for (const [uuid, count] of acceptedBefore) expect(count - 1).toBeLessThanOrEqual(acceptedThenFailed.get(uuid) ?? 0);
    // Restored events kept their uuid and their content.
    const bySeq = new Map(printed.map((uuid, seq) => [uuid, seq]));
    for (const event of second.events) {
      if (bySeq.has(event.uuid!)) expect(event.properties.seq).toBe(bySeq.get(event.uuid!));
    }
    // The dead process's lock was taken over; a record cut by the kill is the only damage allowed.
    expect(errors.filter((e) => !(e.name === 'PersistenceError' && (e as { reason?: string }).reason === 'torn'))).toEqual([]);
  },
);

it('a disk that fills up mid-run: one report, the rest in memory, every event delivered', async () => {
  const dir = tempDir();
  const collector = await createCollector();
  cleanups.push(() => collector.close());
  // RLIMIT_FSIZE makes writes past 32 KiB fail with EFBIG: a full disk for this process only, which
  // works as root (unlike chmod) and needs no mount. Node ignores SIGXFSZ, so the write just fails.
  const run = child(
    `
      const client = new PostHog('phc_k', { host: ${JSON.stringify(collector.url)}, flushAt: 100, flushOnExitTimeout: 0,
        persistence: { type: 'file', path: ${JSON.stringify(dir)} } });
      const errors = [];
      client.on('error', (error) => errors.push({ name: error.name, reason: error.reason, message: error.message }));
      for (let seq = 0; seq < 1000; seq++) client.capture({ distinctId: 'u', event: 'disk full', properties: { seq } });
      await client.shutdown();
      console.log(JSON.stringify({ errors, stats: client.stats() }));
    `,
    'ulimit -f 64',
  );
  expect(await run.exited).toBe(0);
  const { errors, stats } = JSON.parse(run.stdout()) as {
    errors: { name: string; reason: string; message: string }[];
    stats: { delivered: number };
  };
  expect(errors.map((e) => [e.name, e.reason])).toEqual([['PersistenceError', 'unwritable']]);
  expect(errors[0]!.message).toMatch(/could not append to the journal in .*(EFBIG|file size limit).*kept in memory only/);
  expect(stats.delivered).toBe(1000);
  expect(collector.events.map((e) => e.properties.seq)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  expect(statSync(join(dir, 'hogtail.journal')).size).toBeLessThanOrEqual(64 * 1024);
});

it('a script that never calls shutdown() while the server is down keeps its events for the next run and frees the path', async () => {
  const dir = tempDir();
  const down = await createFaultCollector({ plan: () => ({ kind: 'status', status: 503 }) });
  cleanups.push(() => down.close());
  const run = child(`
    const client = new PostHog('phc_k', { host: ${JSON.stringify(down.url)}, flushOnExitTimeout: 300,
      persistence: { type: 'file', path: ${JSON.stringify(dir)} } });
    for (let seq = 0; seq < 5; seq++) client.capture({ distinctId: 'u', event: 'left behind', properties: { seq } });
  `);
  expect(await run.exited).toBe(0);
  // Said as what it is: kept, not dropped.
  expect(run.stderr()).toMatch(/PersistenceError: 5 event\(s\) were not delivered before shutdown; they stay in /);
  expect(run.stderr()).not.toMatch(/DroppedEventsError/);
  expect(readdirSync(dir).sort()).toEqual(['hogtail.journal']); // the lock went with the process

  const up = await createCollector();
  cleanups.push(() => up.close());
  const client = new PostHog('phc_k', { host: up.url, flushOnExitTimeout: 0, persistence: { type: 'file', path: dir } });
  cleanups.push(() => client.shutdown(0));
  await client.flush();
  expect(up.events.map((e) => e.properties.seq)).toEqual([0, 1, 2, 3, 4]);
});
