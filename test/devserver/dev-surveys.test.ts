// hogtail dev serves surveys from a file in PostHog's shapes: GET /api/surveys/?token= lists them
// (CORS, as a page on another origin asks), the flags answer and the remote config say the project
// has surveys, an edit is answered on the next request, and an edit that does not parse keeps the
// last good surveys and says why. A file that cannot be used at start stops the start.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY, postJson } from './helpers';
import { devHarness } from './dev-support';

const harness = devHarness();
afterEach(() => harness.cleanup());

const survey = (id: string) => ({
  id,
  name: id,
  type: 'popover',
  questions: [{ type: 'open', question: 'Why?' }],
  start_date: '2026-01-01',
});

describe('hogtail dev --surveys', () => {
  it('lists the file surveys at /api/surveys/, says so in the flags answer and remote config, and re-reads edits', async () => {
    const dir = harness.tempDir();
    const file = join(dir, 'surveys.json');
    writeFileSync(file, JSON.stringify({ results: [survey('a')] }));
    const { server, log } = await harness.start({ dataDir: dir, surveysFile: file });

    const answer = await fetch(`${server.url}/api/surveys/?token=${KEY}`, { headers: { Origin: 'http://app.example' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://app.example');
    expect(((await answer.json()) as { surveys: { id: string }[] }).surveys.map((s) => s.id)).toEqual(['a']);
    expect((await fetch(`${server.url}/api/surveys/`)).status).toBe(401);

    const flags = await postJson(`${server.url}/flags/?v=2&config=true`, { token: KEY, distinct_id: 'u1' });
    expect(JSON.parse(flags.text)).toMatchObject({ surveys: true });
    expect(await (await fetch(`${server.url}/array/${KEY}/config`)).json()).toMatchObject({ surveys: true });

    writeFileSync(file, JSON.stringify({ surveys: [survey('a'), survey('b')] }));
    const edited = (await (await fetch(`${server.url}/api/surveys/?token=${KEY}`)).json()) as { surveys: { id: string }[] };
    expect(edited.surveys.map((s) => s.id)).toEqual(['a', 'b']);

    writeFileSync(file, '{ "surveys": [ {"id": 1} ] }');
    const kept = (await (await fetch(`${server.url}/api/surveys/?token=${KEY}`)).json()) as { surveys: { id: string }[] };
    expect(kept.surveys.map((s) => s.id)).toEqual(['a', 'b']);
    expect(log).toEqual([
      'rejected GET /api/surveys/ with 401: /api/surveys/ needs the project key as ?token=',
      `surveys: surveys file ${file}: survey 0 needs a string "id" and a "questions" list; still answering the 2 survey(s) read before`,
    ]);
  });

  it('without surveys the project has none: an empty list, surveys false', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    expect(await (await fetch(`${server.url}/api/surveys/?token=${KEY}`)).json()).toEqual({ surveys: [] });
    const flags = await postJson(`${server.url}/flags/?v=2&config=true`, { token: KEY, distinct_id: 'u1' });
    expect(JSON.parse(flags.text)).toMatchObject({ surveys: false });
  });

  it('a surveys file that cannot be used stops the start, naming the file and the problem', async () => {
    const dir = harness.tempDir();
    const file = join(dir, 'surveys.json');
    writeFileSync(file, '{"nope": true}');
    await expect(harness.start({ dataDir: dir, surveysFile: file })).rejects.toThrow(
      `surveys file ${file}: expected a list of surveys, { "surveys": [...] } or { "results": [...] }`,
    );
  });
});
