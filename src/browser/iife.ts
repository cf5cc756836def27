/**
 * The script-tag build (dist/hogtail.iife.js), with everything: see snippet.ts for how it takes
 * over the official PostHog snippet.
 */
import { startAutocapture } from './features/autocapture';
import { createHogtail } from './api/drop-in';
import type { Hogtail } from './index';
import { installScriptTag } from './api/snippet';

// What `import 'hogtail/hogtail.iife.js'` (and the script tag) gives TypeScript: the global it sets.
// An interface, so that it merges with the lite tag's declaration (iife-lite.ts) instead of clashing.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HogtailScriptTag extends Hogtail {}
  interface Window {
    /** The script tag's client; also `window.posthog` unless a real posthog-js is already there. */
    hogtail: HogtailScriptTag;
  }
}

installScriptTag(createHogtail(() => startAutocapture));
