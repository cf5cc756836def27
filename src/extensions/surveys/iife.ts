/**
 * `dist/hogtail.surveys.js`: the file the script tag's loader fetches when the project has surveys.
 * It registers itself on `window.__hogtailExtensions`, whether the tag ran before it or not.
 */
import type { Extension } from '../../browser/features/feature';
import { createSurveysExtension } from './extension';

const w = window as unknown as { __hogtailExtensions?: { push(extension: Extension): void } };
(w.__hogtailExtensions ||= [] as unknown as { push(extension: Extension): void }).push(createSurveysExtension(true));
