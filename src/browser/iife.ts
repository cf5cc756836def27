/**
 * The script-tag build (dist/hogtail.iife.js), with everything: see snippet.ts for how it takes
 * over the official PostHog snippet.
 */
import { createHogtail } from './drop-in';
import { installScriptTag } from './snippet';

installScriptTag(createHogtail());
