// Loads the packed entries in Node as ESM and CommonJS consumers do. On a server the root import is
// the no-op client (the `node` condition): same export names as the browser entry, a default export
// under both, init() and every method callable without throwing, and one debug line in all.
import { expect, it } from 'vitest';
import { exportedSubpaths, runNode, specifier } from '../support/packed';

/** Calls every method of the root client with no arguments and with odd ones, then prints a summary. */
const CALL_EVERYTHING = `
const client = root.default;
const returned = client.init('phc_x', { api_host: 'http://127.0.0.1:1' });
let calls = 0;
for (const name of Object.keys(client)) {
  if (typeof client[name] !== 'function') continue;
  client[name]();
  client[name]('x', null, { y: 1 }, () => undefined);
  calls += 2;
}
client.capture('again');
console.log(JSON.stringify({ sameClient: returned === client, calls, names: Object.keys(root).sort() }));
`;

function summary(stdout: string): { sameClient: boolean; calls: number; names: string[] } {
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

export function runtimeTests(consumer: () => string): void {
  it('on a server, `hogtail` is the no-op client under import and require, and never throws', () => {
    const esm = runNode(consumer(), `import * as root from 'hogtail';\n${CALL_EVERYTHING}`);
    const cjs = runNode(consumer(), `const root = require('hogtail');\n${CALL_EVERYTHING}`, 'commonjs');
    const browser = runNode(
      consumer(),
      `import * as root from 'hogtail/browser'; console.log(JSON.stringify({ names: Object.keys(root).sort() }));`,
    );
    for (const run of [esm, cjs]) {
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const lines = run.stdout.trim().split('\n');
      // One debug line, whatever was called, then the summary.
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^\[hogtail\] no window here .*hogtail\/node/);
      expect(summary(run.stdout)).toMatchObject({ sameClient: true });
      expect(summary(run.stdout).calls).toBeGreaterThan(40);
    }
    // Code rendered on the server and hydrated in the page imports the same names in both places.
    expect(summary(esm.stdout).names).toEqual(summary(browser.stdout).names);
    expect(summary(cjs.stdout).names).toEqual(summary(browser.stdout).names);
  });

  it('every entry but the script tag loads with import() and with require()', () => {
    const specifiers = exportedSubpaths(consumer())
      .filter((subpath) => subpath !== './package.json' && !subpath.endsWith('.js'))
      .map(specifier);
    const list = JSON.stringify(specifiers);
    const esm = runNode(
      consumer(),
      `for (const s of ${list}) { const m = await import(s); if (Object.keys(m).length === 0) throw new Error(s + ' exports nothing'); }\nconsole.log('ok');`,
    );
    const cjs = runNode(
      consumer(),
      `for (const s of ${list}) { const m = require(s); if (Object.keys(m).length === 0) throw new Error(s + ' exports nothing'); }\nconsole.log('ok');`,
      'commonjs',
    );
    expect([esm.stderr, cjs.stderr]).toEqual(['', '']);
    expect([esm.stdout.trim(), cjs.stdout.trim()]).toEqual(['ok', 'ok']);
  });

  it('hogtail/node stays the server client', () => {
    const run = runNode(
      consumer(),
      `import { PostHog } from 'hogtail/node';
const client = new PostHog('phc_x', { host: 'http://127.0.0.1:1', flushOnExitTimeout: 0 });
client.on('error', () => undefined); // nothing listens on port 1: the drop report is expected
client.capture({ distinctId: 'u', event: 'e' });
console.log(client.stats().enqueued); client.shutdown(0);`,
    );
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('1');
  });
}
