/**
 * `import hogtail from 'hogtail'` (browser condition) and `hogtail/browser`: a ready instance, as
 * posthog-js's default export is, plus the factory for pages that need more than one project.
 */
import { createHogtail } from './api/drop-in';

// Autocapture is a chunk of its own, loaded at init unless the app sets `autocapture: false`.
const hogtail = /* @__PURE__ */ createHogtail(() => import('./features/autocapture').then((module) => module.startAutocapture));

export default hogtail;
export { hogtail, hogtail as posthog, createHogtail };
// Extensions (features whose code comes later): an npm module hands its extension to registerExtension.
export { registerExtension } from './features/extensions';
export type { Extension, ExtensionContext } from './features/feature';
export type { CaptureDraft, FeatureHooks, IdentityChange, RemoteConfig } from './features/hooks';
export type { CaptureOptions, Hogtail, HogtailConfig } from './hogtail';
// posthog-js's type names, so `import type { PostHog, PostHogConfig } from 'posthog-js'` switches by its path alone.
export type { BeforeSend as BeforeSendFn, BootstrapConfig, PostHog, PostHog as PostHogInterface, PostHogConfig } from './hogtail';
export type {
  CaptureResult,
  FeatureFlagResult,
  FeatureFlagsCallback,
  JsonRecord,
  JsonType,
  Properties,
  Property,
  SessionIdListener as SessionIdChangedCallback,
  Survey,
  SurveyQuestion,
} from './types';
export type { FlagValue } from '../core/flags/decide';
export type { AutocaptureConfig, AutocaptureOptions, RageclickConfig } from './features/autocapture/options';
export { DroppedEventsError, HogtailError, InvalidEventError, TransportError } from '../core/errors';
export type { DropReason } from '../core/errors';
export { LIB_VERSION } from '../core/version';
