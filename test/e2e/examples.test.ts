// The browser examples send to the one `hogtail dev` the README starts, not to a collector of their
// own: served with HOGTAIL_HOST pointing at a dev server, what a person clicks in real Chromium
// arrives there. With nothing at that address they stop and say what to start.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/devserver';
import { ensureBuilt, repoRoot } from '../support/built';
import { hasChromium, launchChromium, openPage } from './support/chromium';

const WAIT = { timeout: 30_000 };

function runExample(
  script: string,
  host: string,
): { child: ChildProcess; url: Promise<string>; exit: Promise<{ code: number | null; output: string }> } {
  const child = spawn(process.execPath, [join(repoRoot, script)], { env: { ...process.env, HOGTAIL_HOST: host, PORT: '0' } });
  let output = '';
  const url = new Promise<string>((resolve) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /example: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
  });
  const exit = new Promise<{ code: number | null; output: string }>((resolve) => child.on('exit', (code) => resolve({ code, output })));
  return { child, url, exit };
}

describe.skipIf(!hasChromium)('the browser examples send to hogtail dev', () => {
  let browser: Browser;
  let server: DevServer;
  let dataDir: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    ensureBuilt('dist/hogtail.iife.js');
    dataDir = mkdtempSync(join(tmpdir(), 'hogtail-examples-'));
    [browser, server] = await Promise.all([launchChromium(), startDevServer({ dataDir })]);
  });
  afterAll(async () => {
    for (const child of children) child.kill();
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const arrived = (name: string) => server.store.events().some((event) => event.event === name);

  it.each([
    ['examples/script-tag/serve.js', 'page opened', 'button', 'button clicked'],
    ['examples/spa/serve.js', '$pageview', '#login', '$identify'],
  ])('%s: what the page captures and what a click captures arrive at hogtail dev', async (script, onLoad, clickOn, onClick) => {
    const example = runExample(script, server.url);
    children.push(example.child);
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(await example.url);
    await expect.poll(() => arrived(onLoad), WAIT).toBe(true);
    await page.locator(clickOn).first().click();
    // The browser SDK batches; leaving the page sends what it holds.
    await page.goto('about:blank');
    await expect.poll(() => arrived(onClick), WAIT).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('examples/script-tag with hogtail dev --surveys examples/surveys.json: the example shows the survey, the live page its events', async () => {
    const surveysDev = await startDevServer({ dataDir: join(dataDir, 'surveys'), surveysFile: join(repoRoot, 'examples/surveys.json') });
    const example = runExample('examples/script-tag/serve.js', surveysDev.url);
    children.push(example.child);
    const context = await browser.newContext();
    const { page, errors } = await openPage(context);
    await page.goto(await example.url);
    await page.getByRole('dialog', { name: 'How easy was it to set up hogtail?' }).waitFor(WAIT);
    await page.getByRole('radio', { name: '5 of 5' }).click();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('textbox', { name: 'What would make it easier?' }).fill('Nothing');
    await page.getByRole('button', { name: 'Submit' }).click();
    const sent = () => surveysDev.store.events().find((event) => event.event === 'survey sent');
    await expect.poll(() => sent() !== undefined, WAIT).toBe(true);
    expect(sent()!.properties).toMatchObject({
      $survey_name: 'Example feedback',
      $survey_response_rate: 5,
      $survey_response_why: 'Nothing',
    });

    const live = await context.newPage();
    await live.goto(surveysDev.url + '/');
    await live.getByText('survey sent · Example feedback').waitFor(WAIT);
    await live.getByText('survey shown · Example feedback').waitFor(WAIT);
    expect(errors).toEqual([]);
    await context.close();
    await surveysDev.close();
  });

  it('stops with what to start when no hogtail dev answers', async () => {
    const closed = await startDevServer({ dataDir: join(dataDir, 'gone') });
    const address = closed.url;
    await closed.close();
    const { code, output } = await runExample('examples/script-tag/serve.js', address).exit;
    expect(code).toBe(1);
    expect(output).toContain(`No hogtail dev answers at ${address}. Start it first (npx hogtail dev, or npm start)`);
  });
});
