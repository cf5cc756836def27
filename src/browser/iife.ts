/**
 * The script-tag build (dist/hogtail.iife.js), with everything: see snippet.ts for how it takes
 * over the official PostHog snippet, and features/extensions.ts for the extension files it loads.
 */
import { startAutocapture } from './features/autocapture';
import { createClient } from './client';
import { fullBuild } from './api/drop-in';
import { installExtensionGlobal } from './features/extensions';
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

/** The folder this script was loaded from: extension files are next to it. */
const src = (document.currentScript as HTMLScriptElement | null)?.src;
const scriptFolder = src ? src.slice(0, src.lastIndexOf('/') + 1) : undefined;

installExtensionGlobal();
installScriptTag(createClient(fullBuild(() => startAutocapture, scriptFolder)));
