/**
 * `hogtail/recorder`: session replay for apps that bundle it instead of letting the script tag load
 * `hogtail.recorder.js` when the project turns recording on. Hand it to the client once:
 *
 *   import { registerExtension } from 'hogtail';
 *   import { recorder } from 'hogtail/recorder';
 *   registerExtension(recorder);
 *
 * It then records as the project's settings and the init options say (docs/session-replay.md).
 */
export { recorder } from './recorder';
