/**
 * The project's surveys, from `GET {api_host}/api/surveys/?token=<project key>` (posthog-js's
 * endpoint and answer, `{ surveys: [...] }`), fetched once per page and kept for it as posthog-js
 * keeps them; `forceReload` asks again. Calls made while a request is out share it. An answer that
 * is not a list of surveys is reported and read as none; an entry without an id or questions is
 * left out, so one odd survey never hides the others.
 */
import { HogtailError } from '../../core/errors';
import type { ExtensionContext } from '../../browser/features/feature';
import type { Survey, SurveysContext } from './types';

/** A project's survey definitions are a few KB each: 4 MiB is hundreds of surveys. */
const SURVEYS_RESPONSE_CAP = 4 * 1024 * 1024;

export interface Loaded {
  readonly surveys: Survey[];
  readonly context: SurveysContext;
}

export interface Definitions {
  /** What the last successful load answered, if one did. */
  readonly cached: Survey[] | undefined;
  load(forceReload?: boolean): Promise<Loaded>;
}

const isSurvey = (entry: unknown): entry is Survey =>
  !!entry && typeof (entry as Survey).id === 'string' && Array.isArray((entry as Survey).questions);

/** The surveys of an answer's text, or why there are none. */
function parse(status: number, body: string): Loaded {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    // not JSON: said below
  }
  const list = (json as { surveys?: unknown } | undefined)?.surveys;
  if (status !== 200 || !Array.isArray(list)) {
    const what = status === 200 ? 'an answer without a surveys list' : `status ${status}`;
    return { surveys: [], context: { isLoaded: false, error: `the surveys could not be loaded (${what})` } };
  }
  return { surveys: list.filter(isSurvey), context: { isLoaded: true } };
}

export function createDefinitions(context: Pick<ExtensionContext, 'get' | 'token' | 'report'>): Definitions {
  let cached: Survey[] | undefined;
  let inFlight: Promise<Loaded> | undefined;
  const fetchSurveys = (): Promise<Loaded> =>
    context
      .get('/api/surveys/?token=' + encodeURIComponent(context.token), SURVEYS_RESPONSE_CAP)
      .then(
        ({ status, body }) => parse(status, body),
        (error: unknown) => ({ surveys: [], context: { isLoaded: false, error: `the surveys could not be loaded (${String(error)})` } }),
      )
      .then((loaded) => {
        if (loaded.context.isLoaded) cached = loaded.surveys;
        else context.report(new HogtailError(`${loaded.context.error}; no survey is shown until a later page loads them`));
        inFlight = undefined;
        return loaded;
      });
  return {
    get cached() {
      return cached;
    },
    load(forceReload) {
      if (cached && !forceReload) return Promise.resolve({ surveys: cached, context: { isLoaded: true } });
      return (inFlight ??= fetchSurveys());
    },
  };
}
