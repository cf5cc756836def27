// examples/react in real Chromium against a real `hogtail dev` (startDevServer with the examples'
// flags file): the example is served by its own serve.js, as the README runs it; the test clicks
// through it and sees the events, the flag and the recorded error arrive at the dev server.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/devserver';
import { ensureBuilt, repoRoot } from '../support/built';
import { hasChromium, launchChromium, openPage } from './support/chromium';

let dev: DevServer;
let example: ChildProcess;
let exampleUrl: string;
let browser: Browser;
let dataDir: string;

async function until<T>(check: () => T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.runIf(hasChromium)('examples/react against hogtail dev', () => {
  beforeAll(async () => {
    ensureBuilt('dist/react/index.js');
    dataDir = mkdtempSync(join(tmpdir(), 'hogtail-react-'));
    dev = await startDevServer({ dataDir, flagsFile: join(repoRoot, 'examples/flags.json') });
    example = spawn(process.execPath, ['examples/react/serve.js', '--collector', dev.url, '--port', '0'], { cwd: repoRoot });
    let output = '';
    example.stdout!.on('data', (chunk) => (output += chunk));
    example.stderr!.on('data', (chunk) => (output += chunk));
    exampleUrl = await until(() => /react example: (http:\S+)/.exec(output)?.[1], `the example to start (${output})`);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    example?.kill();
    await dev?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the flag from the dev server, and its clicks, flag view and error arrive there', async () => {
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    const pageErrors = errors;
    await page.goto(exampleUrl);
    // examples/flags.json: checkout-button is control or green for every user.
    await page.waitForFunction(() => /checkout-button: (control|green)/.test(document.querySelector('#variant')?.textContent ?? ''));
    const variant = (await page.textContent('#variant'))!.split(': ')[1]!;
    // Clicked before logging in: identify() changes the distinct id, and with it the variant.
    await page.click('#buy');
    await page.click('#login');
    await page.click('#break');
    await page.waitForSelector('#fallback');
    const named = (name: string) => dev.store.events().filter((event) => event.event === name);
    await until(
      () => named('checkout clicked').length > 0 && named('$identify').length > 0 && named('$feature_flag_called').length > 0,
      'the events',
    );
    expect(named('checkout clicked')[0]!.properties.variant).toBe(variant);
    expect(named('$feature_flag_called').map((e) => e.properties.$feature_flag)).toContain('checkout-button');
    if (variant === 'green') await until(() => named('$feature_view').length > 0, 'the feature view');
    // The error boundary recorded the broken widget through the client's captureException.
    const exception = await until(() => named('$exception')[0], 'the $exception event');
    expect(JSON.stringify(exception.properties.$exception_list)).toContain('the widget broke');
    // The render error is recorded by the boundary, and React's own rethrow is the only page error.
    expect(pageErrors.filter((error) => !error.includes('the widget broke'))).toEqual([]);
    await context.close();
  });
});
