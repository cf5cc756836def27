// When session replay records nothing (issue #24, "Done when"), in real Chromium against a real
// collector: remote config off, `sampleRate` 0, a minimum duration longer than the visit, a linked
// flag that is off, `disable_session_recording`, and opt-out (which stops at once); and a reload,
// which continues the session with a new full snapshot. Each "nothing" is read after the visit's
// last event has arrived, and the same visit with recording on is the control that shows
// snapshots would have arrived by then.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium } from './support/chromium';
import { useReplaySite, visitPage } from './support/replay-site';

const ON = { sessionRecording: { endpoint: '/s/' } };
const FULL_SNAPSHOT = 2;

describe.skipIf(!hasChromium)('session replay: when nothing is recorded', () => {
  const env = useReplaySite();

  const visit = (
    config: Record<string, unknown>,
    remote: Record<string, unknown>,
    during?: (page: Page) => Promise<void>,
    context?: BrowserContext,
  ) => visitPage(env, config, remote, during, context);

  it('the control: the same visit with recording on sends snapshots by the time its last event arrives', async () => {
    const { sent, loaded } = await visit({}, ON);
    expect(loaded).toBe(true);
    expect(sent.length).toBeGreaterThan(0);
  });

  it('remote config off, or disable_session_recording: the recorder is not even loaded', async () => {
    for (const [config, remote] of [
      [{}, { sessionRecording: false }],
      [{ disable_session_recording: true }, ON],
    ] as const) {
      const { sent, loaded } = await visit(config, remote);
      expect({ sent: sent.length, loaded }).toEqual({ sent: 0, loaded: false });
    }
  });

  // One test per setting: each is a whole visit, and four in one test outlasted its timeout on a loaded machine.
  it.each([
    ['sampleRate 0', { sampleRate: '0.00' }],
    ['a linked flag that is off', { linkedFlag: 'replay-flag' }],
    ["a linked flag's variant that is off", { linkedFlag: { flag: 'replay-flag', variant: 'test' } }],
    ['a minimum duration longer than the visit', { minimumDurationMilliseconds: 3_600_000 }],
  ] as const)('%s: the recorder loads, nothing is sent', async (_name, recording) => {
    const { sent, loaded } = await visit({}, { sessionRecording: { endpoint: '/s/', ...recording } });
    expect({ sent: sent.length, loaded }).toEqual({ sent: 0, loaded: true });
  });

  it('a sampleRate of 1 and a linked flag that is on record', async () => {
    env.collector.clear();
    const { sent } = await visit(
      {},
      {
        sessionRecording: { endpoint: '/s/', sampleRate: '1.00', linkedFlag: { flag: 'replay-flag', variant: 'test' } },
        featureFlags: { 'replay-flag': 'test' },
      },
    );
    expect(sent.length).toBeGreaterThan(0);
  });

  it('opt-out stops the recording at once: nothing recorded after it is sent', async () => {
    const after = 'typed after the opt-out';
    const { sent } = await visit({ session_recording: { maskAllInputs: false } }, ON, async (page) => {
      await page.fill('#name', 'before');
      await page.waitForFunction(() => (window as any).hogtail.sessionRecordingStarted() === true);
      await page.evaluate(() => (window as any).hogtail.opt_out_capturing());
      await page.fill('#name', after);
      await page.click('#add');
      expect(await page.evaluate(() => (window as any).hogtail.sessionRecordingStarted())).toBe(false);
    });
    expect(JSON.stringify(sent)).not.toContain(after);
  });

  it('a reload continues the session: the same session id, and a new full snapshot', async () => {
    env.collector.clear();
    const context = await env.browser.newContext();
    const twice = async (page: Page) => {
      await page.click('#add');
      await page.reload();
      await page.waitForFunction(() => (window as any).hogtail.sessionRecordingStarted() === true);
      await page.click('#add');
    };
    const { sent } = await visit({}, ON, twice, context);
    await context.close();
    const fullSnapshots = sent.flatMap((event) => event.properties.$snapshot_data).filter((event) => event.type === FULL_SNAPSHOT);
    expect(fullSnapshots.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sent.map((event) => event.properties.$window_id)).size).toBe(1);
  });
});
