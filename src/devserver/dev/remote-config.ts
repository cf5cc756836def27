/**
 * `GET /array/<project key>/config` (JSON) and `/config.js` (a script): the remote config posthog-js
 * asks for at init. hogtail dev answers what a fresh project would (gzip accepted, the capture path,
 * whether any flag is defined, whether the surveys file has surveys) with the browser products of
 * products.ts on, so posthog-js starts as it does against PostHog instead of logging a 404 on every
 * page load. Session replay is on unless the server was started with `--no-recordings`
 * (replay/remote-config.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodePathSegment } from '../http/decode-segment';
import { sendJson, sendText, writeResponse, corsHeaders } from '../http/respond';
import { readProjectKey } from '../ingest/api-key';
import type { RequestTarget } from '../ingest/routes';
import { sessionRecordingConfig } from '../replay/remote-config';

const CONFIG_PATH = /^\/array\/([^/]+)\/config(\.js)?$/;

/** Answers and returns true for the remote config paths; false leaves the request to the others. */
export function handleRemoteConfig(
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
  hasFeatureFlags: () => boolean,
  hasSurveys: () => boolean = () => false,
  products: Record<string, unknown> = {},
  sessionRecording = false,
): boolean {
  const match = CONFIG_PATH.exec(target.pathname);
  if (match === null || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  const decoded = decodePathSegment(match[1] ?? '');
  if (decoded === undefined) {
    sendText(
      req,
      res,
      400,
      'the project key in the path is not valid percent-encoding (a % must start an escape such as %20); send the key as the project settings show it',
    );
    return true;
  }
  const key = readProjectKey(decoded);
  if (!key.ok) {
    sendText(req, res, key.status, key.reason);
    return true;
  }
  const config = {
    token: key.key,
    supportedCompression: ['gzip', 'gzip-js'],
    hasFeatureFlags: hasFeatureFlags(),
    analytics: { endpoint: '/i/v0/e/' },
    autocapture_opt_out: false,
    sessionRecording: sessionRecordingConfig(sessionRecording),
    heatmaps: false,
    surveys: hasSurveys(),
    siteApps: [],
    ...products,
  };
  if (match[2] === undefined) {
    sendJson(req, res, 200, config);
    return true;
  }
  const script = `(function(){var all=window._POSTHOG_REMOTE_CONFIG=window._POSTHOG_REMOTE_CONFIG||{};all[${scriptLiteral(key.key)}]=${scriptLiteral({ config, siteApps: [] })};})();`;
  writeResponse(res, 200, { ...corsHeaders(req), 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' }, script);
  return true;
}

/** JSON is a JavaScript expression; `<` and the line separators are escaped so it is safe anywhere a script is. */
function scriptLiteral(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
