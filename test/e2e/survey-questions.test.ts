// Every question type in real Chromium, with the keyboard only: a link, a single choice whose
// "other" answer is typed, a multiple choice with "other", an emoji rating and an NPS rating whose
// answer branches to the end (the last question is never asked); the feedback-button widget opened
// and closed from the keyboard (focus back on the button); an inline survey rendered into the app's
// element with renderSurvey; and axe-core's audit of each screen reports nothing serious or critical.
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDecideResponse } from '../../src/devserver';
import { repoRoot } from '../support/built';
import { ensureBrowserBuild } from './support/build';
import { hasChromium, launchChromium, openPage } from './support/chromium';
import { startRecordingCollector, type RecordingCollector } from './support/recording-collector';
import { KEY } from './support/site';
import { startStaticServer, type StaticServer } from './support/static-server';
import { until } from './support/until';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const running = { start_date: '2026-01-01T00:00:00Z', end_date: null };

const SURVEYS = [
  {
    ...running,
    id: 'every-type',
    name: 'Every type',
    type: 'popover',
    conditions: { url: '/types.html' },
    appearance: {
      displayThankYouMessage: true,
      thankYouMessageHeader: 'Done, thanks',
      backgroundColor: '#1d4ed8',
      submitButtonColor: '#fde047',
    },
    questions: [
      { type: 'link', id: 'q-link', question: 'Read our changelog', link: 'LINK', buttonText: 'Open the changelog' },
      {
        type: 'single_choice',
        id: 'q-single',
        question: 'What matters most?',
        choices: ['Price', 'Speed', 'Other'],
        hasOpenChoice: true,
        branching: { type: 'response_based', responseValues: { 0: 3 } },
      },
      { type: 'multiple_choice', id: 'q-multi', question: 'Which do you use?', choices: ['Docs', 'API', 'Other'], hasOpenChoice: true },
      {
        type: 'rating',
        id: 'q-emoji',
        question: 'How do you feel?',
        display: 'emoji',
        scale: 5,
        lowerBoundLabel: 'Bad',
        upperBoundLabel: 'Great',
      },
      {
        type: 'rating',
        id: 'q-nps',
        question: 'How likely are you to recommend us?',
        display: 'number',
        scale: 10,
        lowerBoundLabel: 'Not likely',
        upperBoundLabel: 'Very likely',
        skipSubmitButton: true,
        branching: { type: 'response_based', responseValues: { promoters: 'end' } },
      },
      { type: 'open', id: 'q-never', question: 'Never asked', optional: true },
    ],
  },
  {
    ...running,
    id: 'widget',
    name: 'Feedback widget',
    type: 'widget',
    conditions: { url: '/widget.html' },
    appearance: { widgetType: 'tab', widgetLabel: 'Feedback' },
    questions: [{ type: 'open', id: 'q-w', question: 'Tell us anything' }],
  },
  { ...running, id: 'inline', name: 'Inline', type: 'api', questions: [{ type: 'open', id: 'q-i', question: 'Anything to add?' }] },
];

/** The focused element inside the survey's (or widget's) shadow root. */
const focused = () => {
  const inner = document.activeElement?.shadowRoot?.activeElement as HTMLInputElement | null | undefined;
  return inner ? [inner.tagName.toLowerCase(), inner.type || '', inner.textContent || inner.value || ''].join(':') : '';
};

/** axe-core's serious and critical findings on the page, shadow roots included. */
async function audit(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
      .map((v: { id: string; nodes: { target: unknown }[] }) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  });
}

describe.skipIf(!hasChromium)('survey question types, widget and inline surveys in Chromium', () => {
  let browser: Browser;
  let server: StaticServer;
  let collector: RecordingCollector;
  const page = (path: string, body = '', script = '') =>
    server.page(
      path,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Survey questions</title><script src="/hogtail.iife.js"></script>
<script>hogtail.init(${JSON.stringify(KEY)}, ${JSON.stringify({ api_host: collector.url, capture_pageview: false, autocapture: false, flush_at: 1 })});${script}</script>
</head><body><main><h1>Questions</h1>${body}</main></body></html>`,
    );
  const sent = (event: string, id: string) => collector.events.filter((e) => e.event === event && e.properties.$survey_id === id);

  beforeAll(async () => {
    const [iife] = await Promise.all([ensureBrowserBuild(), launchChromium().then((b) => (browser = b))]);
    server = await startStaticServer();
    server.file('/hogtail.iife.js', iife);
    server.file('/hogtail.surveys.js', repoRoot + 'dist/hogtail.surveys.js');
    server.page('/changelog.html', '<!doctype html><title>Changelog</title><p>Changes</p>');
    const surveys = JSON.parse(JSON.stringify(SURVEYS).replace('LINK', server.url + '/changelog.html'));
    collector = await startRecordingCollector({ decide: () => ({ ...defaultDecideResponse(), surveys: true }), surveys: () => surveys });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await collector?.close();
  });

  it('every question type answered with the keyboard alone, branching to the end; axe finds nothing serious', async () => {
    page('/types.html');
    const context = await browser.newContext();
    const { page: tab, errors } = await openPage(context);
    await tab.goto(server.url + '/types.html');
    await tab.getByRole('dialog', { name: 'Read our changelog' }).waitFor();
    expect(await audit(tab)).toEqual([]);
    // The link question: its button has the focus; it opens the link in a new tab.
    expect(await until(tab, focused, 'focus in the survey')).toBe('button:submit:Open the changelog');
    const popup = context.waitForEvent('page');
    await tab.keyboard.press('Enter');
    expect(new URL((await popup).url()).pathname).toBe('/changelog.html');

    // Single choice: arrows move through the radios; "Other" moves focus to its text field.
    await tab.getByRole('dialog', { name: 'What matters most?' }).waitFor();
    expect(await tab.evaluate(focused)).toBe('input:radio:Price');
    await tab.keyboard.press('ArrowDown');
    await tab.keyboard.press('ArrowDown');
    expect(await tab.evaluate(focused)).toBe('input:text:');
    expect(await audit(tab)).toEqual([]);
    await tab.keyboard.type('Support');
    await tab.keyboard.press('Enter');

    // Multiple choice: Space checks, Tab moves on; "Other" with its own words.
    await tab.getByRole('dialog', { name: 'Which do you use?' }).waitFor();
    await tab.keyboard.press('Space');
    await tab.keyboard.press('Tab');
    await tab.keyboard.press('Tab');
    await tab.keyboard.press('Space');
    await tab.keyboard.type('Billing');
    await tab.keyboard.press('Enter');

    // Emoji rating: arrows choose (4 of 5), Tab reaches the button.
    await tab.getByRole('dialog', { name: 'How do you feel?' }).waitFor();
    expect(await audit(tab)).toEqual([]);
    for (let i = 0; i < 3; i++) await tab.keyboard.press('ArrowRight');
    await tab.keyboard.press('Tab');
    expect(await tab.evaluate(focused)).toBe('button:submit:Submit');
    await tab.keyboard.press('Enter');

    // NPS with skipSubmitButton: arrows choose without going on (a keyboard user is still choosing).
    await tab.getByRole('dialog', { name: 'How likely are you to recommend us?' }).waitFor();
    for (let i = 0; i < 10; i++) await tab.keyboard.press('ArrowRight');
    expect(await tab.getByRole('dialog', { name: 'How likely are you to recommend us?' }).isVisible()).toBe(true);
    await tab.keyboard.press('Tab');
    await tab.keyboard.press('Enter');

    // A promoter branches to the end: thanks, and the last question is never asked.
    await tab.getByRole('dialog', { name: 'Done, thanks' }).waitFor();
    expect(await audit(tab)).toEqual([]);
    await tab.keyboard.press('Enter');
    await until(tab, () => !document.querySelector('.hogtail-survey'), 'the survey closed');

    await collector.waitUntil(() => sent('survey sent', 'every-type').length, 10_000);
    const properties = sent('survey sent', 'every-type')[0]!.properties;
    expect(properties).toMatchObject({
      '$survey_response_q-link': 'link clicked',
      '$survey_response_q-single': 'Support',
      '$survey_response_q-multi': ['Docs', 'Billing'],
      '$survey_response_q-emoji': 4,
      '$survey_response_q-nps': 10,
      $survey_completed: true,
    });
    expect(properties).not.toHaveProperty('$survey_response_q-never');
    expect(sent('survey dismissed', 'every-type')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the feedback-button widget opens from the keyboard, closes with Escape, and gives focus back to its button', async () => {
    page('/widget.html');
    const context = await browser.newContext();
    const { page: tab, errors } = await openPage(context);
    await tab.goto(server.url + '/widget.html');
    await tab.getByRole('button', { name: 'Feedback' }).waitFor();
    expect(await audit(tab)).toEqual([]);
    await tab.keyboard.press('Tab');
    expect(await tab.evaluate(focused)).toBe('button:button:Feedback');
    await tab.keyboard.press('Enter');
    await tab.getByRole('dialog', { name: 'Tell us anything' }).waitFor();
    expect(await tab.evaluate(focused)).toBe('textarea:textarea:');
    // Where the focus lands is read as it lands: the survey then counts as seen, and the manager's next
    // check may take the widget off the page, focus and all (a CI run once read the page after that).
    await tab.evaluate(() => {
      const record = () => {
        const inner = document.activeElement?.shadowRoot?.activeElement as HTMLInputElement | null | undefined;
        (window as any).focusAfterEscape ??= inner
          ? [inner.tagName.toLowerCase(), inner.type || '', inner.textContent || ''].join(':')
          : 'outside';
      };
      document.addEventListener('focusin', record, { capture: true, once: true });
    });
    await tab.keyboard.press('Escape');
    expect(await until(tab, () => (window as any).focusAfterEscape, 'focus back on the button')).toBe('button:button:Feedback');
    await collector.waitUntil(() => sent('survey dismissed', 'widget').length, 10_000);
    expect(sent('survey shown', 'widget')).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('renderSurvey(id, selector) renders inside the app element, answered with the mouse', async () => {
    page(
      '/inline.html',
      '<section id="slot" aria-label="Feedback"></section>',
      `hogtail.onSurveysLoaded(() => hogtail.renderSurvey('inline', '#slot'));`,
    );
    const context = await browser.newContext();
    const { page: tab, errors } = await openPage(context);
    await tab.goto(server.url + '/inline.html');
    await tab.getByRole('region', { name: 'Anything to add?' }).waitFor();
    expect(await tab.evaluate(() => document.querySelector('#slot > .hogtail-survey') !== null)).toBe(true);
    expect(await audit(tab)).toEqual([]);
    await tab.getByRole('textbox', { name: 'Anything to add?' }).click();
    await tab.keyboard.type('Inline works');
    await tab.getByRole('button', { name: 'Submit' }).click();
    await collector.waitUntil(() => sent('survey sent', 'inline').length, 10_000);
    expect(sent('survey sent', 'inline')[0]!.properties).toMatchObject({ '$survey_response_q-i': 'Inline works' });
    expect(errors).toEqual([]);
    await context.close();
  });
});
