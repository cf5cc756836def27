/**
 * `hogtail/heatmaps`: the heatmaps extension for apps that bundle it instead of letting the script
 * tag load it. `registerExtension(heatmaps)` (from `hogtail`) sets it up on every client; it
 * starts when `enable_heatmaps` / `capture_heatmaps` or the project's remote config turns it on.
 */
export { heatmaps } from './extension';
