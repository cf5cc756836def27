/**
 * Methods of posthog-js (every one the official snippet stubs) for products hogtail does not
 * have: surveys UI, early access, the toolbar, logs, identity verification,
 * extensions and exception step history. Each exists so a page written for posthog-js keeps running: it never throws, returns
 * what posthog-js returns when the product is off, and warns once naming the product.
 */
import type { Survey } from '../types';

type Callback = (items: never[], context?: unknown) => void;

export interface UnsupportedMethods {
  getSurveys(callback: Callback, forceReload?: boolean): void;
  getActiveMatchingSurveys(callback: Callback, forceReload?: boolean): void;
  renderSurvey(surveyId: string, selector: string): void;
  displaySurvey(surveyId: string, options?: unknown): void;
  cancelPendingSurvey(surveyId: string): void;
  /** With the surveys extension: whether it may show now, and if not why; before it: null. */
  canRenderSurvey(surveyId: string): { visible: boolean; disabledReason?: string } | null;
  canRenderSurveyAsync(surveyId: string, forceReload?: boolean): Promise<{ visible: boolean; disabledReason?: string }>;
  onSurveysLoaded(callback: Callback): () => void;
  onActiveMatchingSurveysChanged(callback: Callback): () => void;
  getEarlyAccessFeatures(callback: Callback, force_reload?: boolean, stages?: unknown): void;
  updateEarlyAccessFeatureEnrollment(key: string, isEnrolled: boolean, stage?: string): void;
  loadToolbar(params: unknown): boolean;
  captureLog(options: unknown): void;
  setIdentity(distinctId: string, hash: string): void;
  clearIdentity(): void;
  getExtension(name: string): undefined;
  /** posthog-js's survey branching; with no surveys loaded it answers -1, as posthog-js does then. */
  getNextSurveyStep(survey: Survey, currentQuestionIndex: number, response: string | string[] | number | null | undefined): number | 'end';
  addExceptionStep(message: string, properties?: Record<string, unknown>): void;
}

/** What each kind of method returns (a method of no kind: nothing): false, '', null, -1, a callback given [], a promise (`u`, a listener: waitingListeners). */
const EMPTY: Record<string, (callback?: unknown) => unknown> = {
  f: () => false,
  s: () => '',
  n: () => null,
  m: () => -1,
  c: (callback) => typeof callback === 'function' && callback([], { isLoaded: false, error: 'not supported by hogtail' }),
  p: () => Promise.resolve({ visible: false, disabledReason: 'not supported by hogtail' }),
};

/** product|method:kind … (kinds as in EMPTY). A string table: the script tag pays little for it. */
const TABLE =
  'surveys|getSurveys:c getActiveMatchingSurveys:c renderSurvey displaySurvey cancelPendingSurvey canRenderSurvey:n canRenderSurveyAsync:p onSurveysLoaded:u onActiveMatchingSurveysChanged:u getNextSurveyStep:m;' +
  'early access features|getEarlyAccessFeatures:c updateEarlyAccessFeatureEnrollment;' +
  'the toolbar|loadToolbar:f;' +
  'logs|captureLog;' +
  'identity verification|setIdentity clearIdentity;' +
  'extensions|getExtension;' +
  'exception step history|addExceptionStep';

/**
 * A listener registration (onSurveysLoaded…): kept, not warned about, because the product may be an
 * extension still on its way; when it comes (ExtensionContext.provide) it takes the listeners over.
 * The unsubscribe works before and after.
 */
function waitingListeners() {
  const waiting: { args_: unknown[]; off_?: unknown }[] = [];
  const stub = (...args: unknown[]) => {
    const call: (typeof waiting)[number] = { args_: args };
    waiting.push(call);
    return () => (call.off_ ? (call.off_ as () => void)() : waiting.splice(waiting.indexOf(call) >>> 0, 1));
  };
  stub.takeOver_ = (method: (...args: unknown[]) => unknown) => {
    for (const call of waiting.splice(0)) call.off_ = method(...call.args_);
  };
  return stub;
}

/** The methods, each warning once (through `warn`) that `product` is not part of hogtail. */
export function unsupportedMethods(warn: (key: string, message: string) => void): UnsupportedMethods {
  const methods: Record<string, (callback?: unknown) => unknown> = {};
  for (const group of TABLE.split(';')) {
    const [product, names] = group.split('|') as [string, string];
    for (const entry of names.split(' ')) {
      const [name, kind] = entry.split(':') as [string, string?];
      methods[name] =
        kind === 'u'
          ? waitingListeners()
          : (callback) => {
              warn(product, `${name}(): ${product} is not supported by hogtail; it has no effect`);
              return EMPTY[kind!]?.(callback); // a method of no kind has no entry: undefined
            };
    }
  }
  return methods as unknown as UnsupportedMethods;
}
