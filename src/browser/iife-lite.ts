/**
 * The lite script tag (dist/hogtail.lite.iife.js): capture, the durable queue, flags, identity,
 * consent and page views, hogtail's own API only (no posthog-js extras, autocapture, exceptions
 * or cookies). Takes over the official snippet like the full one.
 */
import { createClient, type HogtailLite } from './client';
import { autocaptureFeature } from './features/autocapture/wire';
import { flagsFeature } from './features/flags';
import { pageleaveFeature } from './features/pageleave';
import { pageviewsFeature } from './features/pageviews';
import { installScriptTag } from './api/snippet';

// What `import 'hogtail/hogtail.lite.iife.js'` gives TypeScript: the global it sets, with only the
// methods this build has (a call to a posthog-js extra is a type error, as it is a TypeError here).
// An interface, not the type itself: where a program also imports the full script tag, the two
// declarations merge into the full client instead of clashing.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HogtailScriptTag extends HogtailLite {}
  interface Window {
    /** The lite script tag's client; also `window.posthog` unless a real posthog-js is already there. */
    hogtail: HogtailScriptTag;
  }
}

// Autocapture without a loader: it only warns when the page asks for it.
installScriptTag(
  createClient({ features_: [flagsFeature(), pageviewsFeature(), pageleaveFeature(), autocaptureFeature()], methods_: {}, options_: [] }),
);
