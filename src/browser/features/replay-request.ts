/**
 * What the script tag knows of session replay before the recorder file is there: when to load it
 * (LOADABLE's `recorder` entry, in extensions.ts) and whether the app asked for a recording
 * (startSessionRecording() before the file arrived: the recorder reads it through its context).
 * Apart from replay.ts, which calls the loader, so that extensions.ts and it import no cycle.
 */
import { isObject } from '../../core/special-events';
import type { HogtailConfig } from '../hogtail';
import type { RemoteConfig } from './hooks';

/** Per client (its options object): startSessionRecording()'s override, once it was called. */
export const recordingAsked = new WeakMap<HogtailConfig, unknown>();

/**
 * The recorder: wanted when the project's remote config turns recording on or the app asked for
 * it, unless the options turn it off (startSessionRecording() turns them back on, as in posthog-js).
 */
export const recorderLoadable = {
  file: 'hogtail.recorder.js',
  wanted: (config: HogtailConfig, remote: RemoteConfig | undefined) =>
    !config.disable_session_recording && (recordingAsked.has(config) || isObject(remote?.sessionRecording)),
};
