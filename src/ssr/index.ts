/**
 * `import hogtail from 'hogtail'` on a server (the package's `node` condition): the same exports as
 * the browser entry, with a client whose init() and methods do nothing (see noop-client.ts), so a
 * component rendered on the server and hydrated in the page imports one name in both places.
 */
import type { Extension, Hogtail } from '../browser/index';
import { createNoopHogtail } from './noop-client';

const hogtail: Hogtail = createNoopHogtail();

export default hogtail;
export { hogtail, hogtail as posthog, createNoopHogtail as createHogtail };
/** Extensions run in pages only: on a server, registering one does nothing. */
export const registerExtension = (_extension: Extension): void => undefined;
export type { CaptureOptions, FlagValue, Hogtail, HogtailConfig } from '../browser/index';
export type { BeforeSendFn, BootstrapConfig, PostHog, PostHogInterface, PostHogConfig } from '../browser/index';
export type { CaptureResult, FeatureFlagResult, FeatureFlagsCallback, JsonRecord, JsonType, Properties, Property } from '../browser/index';
export type { SessionIdChangedCallback, Survey, SurveyQuestion } from '../browser/index';
export type { AutocaptureConfig, RageclickConfig } from '../browser/index';
export type { CaptureDraft, Extension, ExtensionContext, FeatureHooks, IdentityChange, RemoteConfig } from '../browser/index';
export { DroppedEventsError, HogtailError, InvalidEventError, TransportError } from '../core/errors';
export type { DropReason } from '../core/errors';
export { LIB_VERSION } from '../core/version';
