/**
 * dist/hogtail.web-vitals.js: the file the script tag loads when web vitals are turned on. It
 * registers the extension on the tag's global, whether the tag has run yet or not.
 */
import type { Extension } from '../../browser/features/feature';
import { webVitals } from './extension';

const w = window as unknown as { __hogtailExtensions?: { push(extension: Extension): void } };
(w.__hogtailExtensions ||= [] as Extension[]).push(webVitals);
