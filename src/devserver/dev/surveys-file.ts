/**
 * The surveys behind `hogtail dev --surveys`: a file in PostHog's shapes (what `GET /api/surveys/`
 * answers an SDK, `{ "surveys": [...] }`; what the management API lists, `{ "results": [...] }`;
 * or a bare list), re-read when it changes like the flags file, so editing a survey shows on the next
 * page load. A change that does not parse keeps the last good surveys and says why.
 */
import { readFileSync, statSync } from 'node:fs';

export interface SurveysSource {
  /** The surveys to answer now (re-reading the file first if it changed). */
  current(): readonly unknown[];
}

/** The list in any of the accepted shapes; throws a readable error otherwise. */
export function readSurveyList(parsed: unknown): unknown[] {
  const list = Array.isArray(parsed)
    ? parsed
    : ((parsed as { surveys?: unknown; results?: unknown } | null)?.surveys ?? (parsed as { results?: unknown } | null)?.results);
  if (!Array.isArray(list)) throw new Error('expected a list of surveys, { "surveys": [...] } or { "results": [...] }');
  const bad = list.findIndex(
    (survey) => typeof (survey as { id?: unknown })?.id !== 'string' || !Array.isArray((survey as { questions?: unknown })?.questions),
  );
  if (bad !== -1) throw new Error(`survey ${bad} needs a string "id" and a "questions" list`);
  return list;
}

const signatureOf = (file: string): string => {
  try {
    const stats = statSync(file);
    return `${stats.mtimeMs}:${stats.size}:${stats.ino}`;
  } catch {
    return 'missing';
  }
};

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The file's surveys; throws an error that names the file and what is wrong with it. */
function load(file: string): unknown[] {
  const text = readFileSync(file, 'utf8'); // a missing file: Node's ENOENT message names it
  try {
    return readSurveyList(JSON.parse(text));
  } catch (error) {
    throw new Error(`surveys file ${file}: ${describe(error)}`, { cause: error });
  }
}

/** Reads `file` now (throwing when it cannot be used: `hogtail dev` then refuses to start) and on every change. */
export function openSurveysFile(file: string, onError: (message: string) => void): SurveysSource {
  let surveys = load(file);
  let signature = signatureOf(file);
  return {
    current() {
      const next = signatureOf(file);
      if (next === signature) return surveys;
      signature = next;
      try {
        surveys = load(file);
      } catch (error) {
        onError(`${describe(error)}; still answering the ${surveys.length} survey(s) read before`);
      }
      return surveys;
    },
  };
}
