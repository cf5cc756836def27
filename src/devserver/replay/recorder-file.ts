/**
 * `GET /static/hogtail.recorder.js`: the recorder extension, for apps whose client loads it from
 * `api_host` (the npm build does, as posthog-js loads its `lazy-recorder.js` from there), so an app
 * pointed at `hogtail dev` records without hosting the file itself. Read from the package's dist/
 * (next to the dev server's folder; in the repository, its dist/ after a build).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeResponse } from '../http/respond';
import type { RequestTarget } from '../ingest/routes';

const FILE = 'hogtail.recorder.js';

function locate(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  // dist/devserver/, dist/chunks/ or dist/cli/ (the package); src/devserver/replay/ (the repository).
  return [join(here, '..', FILE), join(here, '..', '..', '..', 'dist', FILE)].find((path) => existsSync(path));
}

/** Answers and returns true for the recorder's path; false leaves the request to the others. */
export function handleRecorderFile(req: IncomingMessage, res: ServerResponse, target: RequestTarget): boolean {
  if (target.pathname !== `/static/${FILE}` || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  const path = locate();
  const headers = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
  if (path === undefined) {
    writeResponse(
      res,
      404,
      { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
      `${FILE} is not part of this install (npm run build?)`,
    );
  } else {
    writeResponse(res, 200, { ...headers, 'Content-Type': 'text/javascript; charset=utf-8' }, readFileSync(path, 'utf8'));
  }
  return true;
}
