/**
 * What the React bindings need of a client: the browser client's own type, named through the
 * package (not ../browser) so the published declarations point at the one client type users have.
 * `hogtail/browser` rather than the root: the root's types follow the export condition, and under
 * `node`/`require` they describe the server.
 */
import type { Hogtail } from 'hogtail/browser';

export type PostHogClient = Hogtail;
export type FlagValue = boolean | string;

/** posthog-js's bootstrap option: what the server knew when it rendered the page. */
export interface BootstrapFlags {
  featureFlags?: Record<string, FlagValue>;
  featureFlagPayloads?: Record<string, unknown>;
}
