/**
 * `import hogtail from 'hogtail'` (browser condition) and `hogtail/browser`: a ready instance, as
 * posthog-js's default export is, plus the factory for pages that need more than one project.
 */
import { createHogtail } from './drop-in';

// Autocapture is a chunk of its own, loaded at init unless the app sets `autocapture: false`.
const hogtail = /* @__PURE__ */ createHogtail(() => import('./autocapture').then((module) => module.startAutocapture));

export default hogtail;
export { hogtail, hogtail as posthog, createHogtail };
export type { CaptureOptions, Hogtail, HogtailConfig } from './hogtail';
export type { FlagValue } from '../core/flags/decide';
export type { AutocaptureConfig, AutocaptureOptions, RageclickConfig } from './autocapture/options';
export { DroppedEventsError, HogtailError, InvalidEventError, TransportError } from '../core/errors';
export type { DropReason } from '../core/errors';
export { LIB_VERSION } from '../core/version';
