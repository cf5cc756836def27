/**
 * The session replay extension (`recorder`): it records when the project's remote config turns
 * recording on (`sessionRecording` of the flags answer) or the app calls startSessionRecording(),
 * unless `disable_session_recording` (which startSessionRecording() clears, as in posthog-js) or
 * the user's consent says no. It takes over the client's replay methods when it arrives, follows
 * each new remote config, stops at once on opt-out (what was not sent yet is dropped, counted
 * `opted_out`), and sends what is left at pagehide.
 *
 * Unlike posthog-js, an explicit startSessionRecording() records even when the project's settings
 * have recording off: the app asked for it by name.
 */
import type { Extension, ExtensionContext, FeatureHooks, RemoteConfig } from '../../browser/index';
import { isObject } from '../../core/special-events';
import { createGates, readOverride, type Overrides } from './gates';
import { createSessionMarks } from './session-marks';
import { startRecording, type Recording } from './recording';
import { readSettings, type RecorderSettings } from './settings';
import { createSnapshotSender } from './snapshot-sender';

/** Whether the user's consent lets the page be recorded now (opt-out, cookieless modes). */
function consentAllows({ client, config }: ExtensionContext): boolean {
  if (client.has_opted_out_capturing()) return false;
  const mode = config.cookieless_mode;
  return mode !== 'always' && !(mode === 'on_reject' && client.get_explicit_consent_status() !== 'granted');
}

/** Each setting hogtail's recorder cannot honour is named once per page. */
function warnUnsupported(settings: RecorderSettings, warned: Set<string>): void {
  for (const name of settings.unsupported) {
    if (!warned.has(name)) console.warn(`[hogtail] session replay: ${name} is not supported by hogtail's recorder; it has no effect`);
    warned.add(name);
  }
}

function setupRecorder(context: ExtensionContext): FeatureHooks {
  const { client, config } = context;
  let remote: RemoteConfig | undefined = context.remoteConfig();
  let asked = context.recordingAsked();
  let overrides: Overrides = readOverride(asked);
  let settings: RecorderSettings = readSettings(remote, config);
  let recording: Recording | undefined;
  /** The session that was sampled out or whose linked flag is off: not tried again until it changes. */
  let offFor: string | undefined;
  const allowed = () => consentAllows(context) && !config.disable_session_recording;
  const endpoint = () => settings.endpoint;
  const sender = createSnapshotSender(context, endpoint, () => consentAllows(context));
  let flagsKnown = false;
  const gates = createGates(
    client,
    () => [settings, overrides],
    () => flagsKnown,
    createSessionMarks(context),
  );
  const warned = new Set<string>();

  const wanted = () =>
    !config.disable_session_recording && (asked !== undefined || isObject(remote?.sessionRecording)) && consentAllows(context);

  const stop = (discard = false) => {
    recording?.stop(discard);
    recording = undefined;
  };

  const start = () => {
    if (recording || !wanted()) return;
    // Sampled out or a linked flag off: rrweb is not even started for this session.
    const { sessionId } = context.sessionIds(false);
    if (offFor === sessionId || gates.verdict(sessionId, location.href, Infinity) === 'off') return void (offFor = sessionId);
    warnUnsupported(settings, warned);
    recording = startRecording({
      context,
      settings,
      gates,
      sender,
      allowed,
      onStopped(why) {
        recording = undefined;
        if (why === 'off') offFor = context.sessionIds(false).sessionId;
        if (why === 'consent') sender.discard('opted_out');
        context.debug(`session replay stopped (${why})`);
      },
    });
    if (recording) context.debug('session replay started');
  };

  Object.assign(client, {
    startSessionRecording(override?: unknown) {
      config.disable_session_recording = false;
      asked = override ?? true;
      overrides = readOverride(asked);
      offFor = undefined;
      stop();
      start();
    },
    stopSessionRecording() {
      config.disable_session_recording = true;
      asked = undefined;
      stop();
    },
    sessionRecordingStarted: () => recording !== undefined,
  });
  // A session that rotates, or flags that arrive, may open a gate that was closed.
  client.onSessionId(() => start());
  client.onFeatureFlags(() => {
    flagsKnown = true;
    offFor = undefined;
    start();
  });
  start();

  return {
    onRemoteConfig(config) {
      // Each flags answer (the poll too) carries it: a recording restarts only when it changed.
      // (capturePerformance too: its network timing is part of what is recorded.)
      const of = (c: RemoteConfig | undefined) => JSON.stringify([c?.sessionRecording, c?.capturePerformance]);
      const same = of(config) === of(remote);
      remote = config;
      if (same && (recording !== undefined) === wanted()) return;
      settings = readSettings(remote, context.config);
      stop();
      start();
    },
    beforeCapture(draft) {
      const name = draft.input.event;
      if (settings.eventTriggers.length > 0 && typeof name === 'string') gates.eventCaptured(name, context.sessionIds(false).sessionId);
    },
    onUnload() {
      recording?.flush(true);
      sender.unload();
    },
  };
}

export const recorder: Extension = { name: 'recorder', setup: setupRecorder };
