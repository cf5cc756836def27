/**
 * `dist/hogtail.recorder.js`: the file the script tag loads when recording is turned on. It hands
 * the recorder to the tag through `window.__hogtailExtensions`, whether it runs before or after it.
 */
import { recorder } from './recorder';

const w = window as unknown as { __hogtailExtensions?: { push(...extensions: unknown[]): unknown } };
(w.__hogtailExtensions ||= []).push(recorder);
