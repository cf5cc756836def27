/**
 * What a recording follows, read once from the project's remote config (`sessionRecording` of the
 * flags answer) and the init options, the way posthog-js reads them: the init options win where
 * both say something (sample rate, console logs, masking), and masking only ever gets stricter
 * than rrweb's defaults here (inputs masked, passwords always, `.ph-no-capture` blocked).
 * The server sends numbers as strings at times (`sampleRate: "0.50"`), so each value is checked.
 */
import type { HogtailConfig, RemoteConfig } from '../../browser/index';
import { readCanvas, withCanvas } from './canvas';
import { readNetworkSettings, type NetworkSettings } from './network/settings';
import type { RecordOptions } from './rrweb-types';

/** A URL pattern of the remote config (`{ url, matching: 'regex' }`). */
export type UrlPattern = RegExp;

export interface LinkedFlag {
  readonly key: string;
  /** The variant the flag must have; undefined: any enabled value. */
  readonly variant: string | undefined;
}

export interface RecorderSettings {
  /** The path snapshots are posted to (`/s/`). */
  readonly endpoint: string;
  /** 0..1, decided once per session from its id; undefined: every session. */
  readonly sampleRate: number | undefined;
  /** A session shorter than this sends nothing. */
  readonly minimumDurationMs: number;
  readonly linkedFlag: LinkedFlag | undefined;
  readonly urlTriggers: readonly UrlPattern[];
  readonly urlBlocklist: readonly UrlPattern[];
  readonly eventTriggers: readonly string[];
  /** 'all': every kind of trigger configured must have fired; 'any' (the default): one. */
  readonly triggerMatchType: 'any' | 'all';
  readonly console: boolean;
  /** The network requests to record (network/settings.ts); undefined: none. */
  readonly network: NetworkSettings | undefined;
  /** rrweb's options for masking and blocking. */
  readonly rrweb: RecordOptions;
  /** What was configured that hogtail's recorder does not do (said once, by name). */
  readonly unsupported: readonly string[];
}

/** session_recording options passed on to rrweb as they are (posthog-js's allowed list). */
const RRWEB_OPTIONS = [
  'blockClass',
  'blockSelector',
  'ignoreClass',
  'maskTextClass',
  'maskTextSelector',
  'maskTextFn',
  'maskAllInputs',
  'maskInputFn',
  'slimDOMOptions',
  'collectFonts',
  'inlineStylesheet',
  'recordCrossOriginIframes',
] as const;

/** posthog-js options hogtail's recorder has no counterpart for: said once, not ignored in silence. */
const KNOWN_ELSEWHERE = [
  'sampleRate',
  'minimumDurationMilliseconds',
  'linkedFlag',
  'maskInputOptions',
  'sampling',
  'recordHeaders',
  'recordBody',
  'maskNetworkRequestFn',
  'maskCapturedNetworkRequestFn',
  'captureCanvas',
];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function rate(value: unknown): number | undefined {
  const parsed = typeof value === 'string' ? Number.parseFloat(value) : value;
  return typeof parsed === 'number' && parsed >= 0 && parsed <= 1 ? parsed : undefined;
}

function patterns(value: unknown): RegExp[] {
  const out: RegExp[] = [];
  for (const item of Array.isArray(value) ? value : []) {
    const source = isRecord(item) ? item.url : undefined;
    if (typeof source !== 'string') continue;
    try {
      out.push(new RegExp(source));
    } catch {
      // A pattern the browser cannot compile matches nothing (posthog-js skips it too).
    }
  }
  return out;
}

function linkedFlag(value: unknown): LinkedFlag | undefined {
  if (typeof value === 'string' && value) return { key: value, variant: undefined };
  if (isRecord(value) && typeof value.flag === 'string' && value.flag) {
    return { key: value.flag, variant: typeof value.variant === 'string' ? value.variant : undefined };
  }
  return undefined;
}

/** rrweb's options: privacy first, then what the project's masking and the app's options add. */
function rrwebOptions(local: Record<string, unknown>, masking: Record<string, unknown>, unsupported: string[]): RecordOptions {
  const options: Record<string, unknown> = {
    blockClass: 'ph-no-capture',
    ignoreClass: 'ph-ignore-input',
    maskTextClass: 'ph-mask',
    maskAllInputs: true,
    inlineStylesheet: true,
    collectFonts: false,
    recordCrossOriginIframes: false,
    slimDOMOptions: {},
  };
  if (typeof masking.maskAllInputs === 'boolean') options.maskAllInputs = masking.maskAllInputs;
  if (typeof masking.maskTextSelector === 'string') options.maskTextSelector = masking.maskTextSelector;
  if (typeof masking.blockSelector === 'string') options.blockSelector = masking.blockSelector;
  for (const [name, value] of Object.entries(local)) {
    if ((RRWEB_OPTIONS as readonly string[]).includes(name)) options[name] = value;
    else if (!KNOWN_ELSEWHERE.includes(name)) unsupported.push('session_recording.' + name);
  }
  // Passwords are masked whatever the options say; the app may mask more kinds of input.
  options.maskInputOptions = { ...(isRecord(local.maskInputOptions) ? local.maskInputOptions : {}), password: true };
  if (isRecord(local.sampling)) {
    const { mousemove, mouseInteraction, scroll, input } = local.sampling;
    options.sampling = { mousemove, mouseInteraction, scroll, input };
  }
  return options as RecordOptions;
}

/** The settings from the remote config's `sessionRecording` (an object, or anything else: no remote settings) and the options. */
export function readSettings(remote: RemoteConfig | undefined, config: HogtailConfig): RecorderSettings {
  const server = isRecord(remote?.sessionRecording) ? remote.sessionRecording : {};
  const local = isRecord(config.session_recording) ? config.session_recording : {};
  const unsupported: string[] = [];
  const trigger = server.triggerMatchType;
  return {
    endpoint: typeof server.endpoint === 'string' && server.endpoint.startsWith('/') ? server.endpoint : '/s/',
    sampleRate: rate(local.sampleRate) ?? rate(server.sampleRate),
    minimumDurationMs: Math.max(0, Number(local.minimumDurationMilliseconds ?? server.minimumDurationMilliseconds) || 0),
    linkedFlag: linkedFlag(server.linkedFlag),
    urlTriggers: patterns(server.urlTriggers),
    urlBlocklist: patterns(server.urlBlocklist),
    eventTriggers: (Array.isArray(server.eventTriggers) ? server.eventTriggers : []).filter(
      (name): name is string => typeof name === 'string',
    ),
    triggerMatchType: trigger === 'all' ? 'all' : 'any',
    console:
      typeof config.enable_recording_console_log === 'boolean'
        ? config.enable_recording_console_log
        : server.consoleLogRecordingEnabled === true,
    network: readNetworkSettings(remote, config),
    rrweb: withCanvas(rrwebOptions(local, isRecord(server.masking) ? server.masking : {}, unsupported), readCanvas(server, local)),
    unsupported,
  };
}
