/**
 * `hogtail/web-vitals`: the web vitals extension for apps that bundle it instead of letting the
 * script tag load it. `registerExtension(webVitals)` (from `hogtail`) sets it up on every client;
 * it starts when `capture_performance` or the project's remote config turns it on.
 */
export { webVitals } from './extension';
