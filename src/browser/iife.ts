/**
 * The script-tag build (dist/hogtail.iife.js). Assigns `window.hogtail`; when the official
 * snippet's stub is at `window.posthog`, initialises from it, replays its calls in order and
 * takes its place, so a site can swap posthog-js's array.js for this file and change nothing else.
 * A real posthog-js already on the page is left alone.
 */
import { startAutocapture } from './autocapture';
import { createHogtail } from './client';
import { adoptSnippet, isSnippetStub } from './snippet';
import type { Hogtail } from './index';

// What `import 'hogtail/hogtail.iife.js'` (and the script tag) gives TypeScript: the global it sets.
declare global {
  interface Window {
    /** The script tag's client; also `window.posthog` unless a real posthog-js is already there. */
    hogtail: Hogtail;
  }
}

const w = window as unknown as Record<string, unknown>;
const client = createHogtail(() => startAutocapture);
w.hogtail = client;
const stub = w.posthog;
if (isSnippetStub(stub)) w.posthog = adoptSnippet(stub, client);
else if (stub === undefined) w.posthog = client;
