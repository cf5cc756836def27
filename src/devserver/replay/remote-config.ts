/**
 * `hogtail dev` turns session replay on for the apps pointed at it, as a PostHog project with
 * recording switched on does: its flags answer (`/flags/?v=2&config=true`, `/decide`) and
 * `/array/<key>/config` carry `sessionRecording` with the endpoint the recordings go to (`/s/`,
 * which the dev server stores), console logs included, and the page's network requests with their
 * headers and bodies (`networkPayloadCapture`): they stay on the developer's machine, and a request
 * is what one most often wants to see beside the page when debugging locally (credentials are still
 * redacted by the recorder). `--no-recordings` answers false instead.
 */
import type { DecideHandler } from '../ingest/types';

/** What the remote config says about session replay. */
export const sessionRecordingConfig = (on: boolean) =>
  on ? { endpoint: '/s/', consoleLogRecordingEnabled: true, networkPayloadCapture: { recordHeaders: true, recordBody: true } } : false;

/** The flags answers of `decide`, with session replay's remote config. */
export function withSessionRecording(decide: DecideHandler, on: boolean): DecideHandler {
  return async (request, headers) => ({ ...(await decide(request, headers)), sessionRecording: sessionRecordingConfig(on) });
}
