/**
 * Session replay's methods until the recorder is there (the recorder extension replaces the first
 * three on the client when it arrives), and the options it reads, so they no longer warn as
 * unsupported. startSessionRecording() turns recording on as posthog-js's does (it clears
 * `disable_session_recording`) and has the recorder file loaded; the URL of a session's recording
 * needs no recorder.
 */
import { loadWantedExtensions } from './extensions';
import type { Feature } from './feature';
import { recordingAsked } from './replay-request';

export const replayFeature = (): Feature => ({
  name: 'replay',
  options_: ['disable_session_recording', 'session_recording', 'enable_recording_console_log'],
  methods_: {
    startSessionRecording(rt, override) {
      rt.config_.disable_session_recording = false;
      recordingAsked.set(rt.config_, override ?? true);
      loadWantedExtensions(rt);
    },
    stopSessionRecording(rt) {
      rt.config_.disable_session_recording = true;
      recordingAsked.delete(rt.config_);
    },
    sessionRecordingStarted: () => false,
    get_session_replay_url(rt, options) {
      const { config_: config, endpoint_: endpoint } = rt;
      const ui = (config.ui_host || endpoint.host.replace('.i.posthog.com', '.posthog.com')).replace(/\/+$/, '');
      const url = `${ui}/project/${endpoint.apiKey}/replay/${rt.states_.session_(Date.now(), true)}`;
      const start = rt.states_.state_.sid?.[2];
      if (!options?.withTimestamp || !start) return url;
      return url + '?t=' + Math.max(Math.floor((Date.now() - start) / 1000) - (options.timestampLookBack ?? 10), 0);
    },
  },
  setup() {},
});
