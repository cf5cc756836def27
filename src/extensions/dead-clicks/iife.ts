/**
 * dist/hogtail.dead-clicks.js: the file the script tag loads when dead clicks are turned on. It
 * registers the extension on the tag's global, whether the tag has run yet or not.
 */
import type { Extension } from '../../browser/features/feature';
import { deadClicks } from './extension';

const w = window as unknown as { __hogtailExtensions?: { push(extension: Extension): void } };
(w.__hogtailExtensions ||= [] as Extension[]).push(deadClicks);
