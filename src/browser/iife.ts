/**
 * The script-tag build (dist/hogtail.iife.js), with everything: see snippet.ts for how it takes
 * over the official PostHog snippet.
 */
import { startAutocapture } from './autocapture';
import { createHogtail } from './drop-in';
import type { Hogtail } from './index';
import { installScriptTag } from './snippet';

// What `import 'hogtail/hogtail.iife.js'` (and the script tag) gives TypeScript: the global it sets.
declare global {
  interface Window {
    /** The script tag's client; also `window.posthog` unless a real posthog-js is already there. */
    hogtail: Hogtail;
  }
}

installScriptTag(createHogtail(() => startAutocapture));
