/**
 * Session replay's public methods, with posthog-js's names and argument shapes. The recording
 * itself is an extension (src/extensions/recorder: the file `hogtail.recorder.js`, or the npm
 * entry `hogtail/recorder`); the client has these methods from the start (replay.ts), and the
 * recorder takes them over once it is there.
 */

/**
 * What startSessionRecording() may skip for the recording it starts: `true` is sampling and the
 * linked flag; an object names each (posthog-js's shape).
 */
export type SessionRecordingOverride =
  | boolean
  | { sampling?: boolean; linked_flag?: boolean; url_trigger?: boolean; event_trigger?: boolean };

export interface SessionRecordingMethods {
  /**
   * Records this session from now on (it loads the recorder when it is not there yet), even when
   * init() had `disable_session_recording: true`; `override` skips the project's sampling, linked
   * flag or triggers for it.
   */
  startSessionRecording(override?: SessionRecordingOverride): void;
  /** Stops recording at once; what was recorded and not sent yet is still sent. */
  stopSessionRecording(): void;
  /** Whether the recorder is recording now. */
  sessionRecordingStarted(): boolean;
  /**
   * Where the session's recording is shown in PostHog (`ui_host`, else the app host of
   * `api_host`); `withTimestamp`: it starts `timestampLookBack` seconds (10) before now.
   */
  get_session_replay_url(options?: { withTimestamp?: boolean; timestampLookBack?: number }): string;
}
