// Type-level check (run by `tsc -p tsconfig.json`): hogtail/node's client goes where code written
// for posthog-node reads a client. posthog-node's `PostHog` class has private members, so no other
// class can be assigned to that exact type; `@posthog/ai`'s tracing reads `capture`,
// `captureImmediate` and `privacyMode`, and apps pass the client around for the methods below, so
// those are what must fit, with posthog-node's own parameter and return types.
import type { PostHog as PeerPostHog } from 'posthog-node';
import { PostHog } from '../../src/node';

type WhatToolsRead = Pick<
  PeerPostHog,
  | 'capture'
  | 'captureImmediate'
  | 'privacyMode'
  | 'identify'
  | 'alias'
  | 'groupIdentify'
  | 'setPersonProperties'
  | 'unsetPersonProperties'
  | 'isFeatureEnabled'
  | 'getFeatureFlag'
  | 'getFeatureFlagPayload'
  | 'getContext'
  | 'enterContext'
  | 'flush'
  | 'shutdown'
>;

export const asPosthogNodeClient: WhatToolsRead = new PostHog('phc_types', { privacyMode: true });
