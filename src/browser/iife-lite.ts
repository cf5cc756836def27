/**
 * The lite script tag (dist/hogtail.lite.iife.js): capture, the durable queue, flags, identity,
 * consent and page views, hogtail's own API only (no posthog-js extras, autocapture, exceptions
 * or cookies). Takes over the official snippet like the full one.
 */
import { createClient } from './client';
import { installScriptTag } from './snippet';

installScriptTag(createClient({ methods: {}, options: [] }));
