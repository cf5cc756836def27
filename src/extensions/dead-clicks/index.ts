/**
 * `hogtail/dead-clicks`: the dead clicks extension for apps that bundle it instead of letting the
 * script tag load it. `registerExtension(deadClicks)` (from `hogtail`) sets it up on every client;
 * it starts when `capture_dead_clicks` or the project's remote config turns it on.
 */
export { deadClicks } from './extension';
