/**
 * The surveys extension: posthog-js's surveys on hogtail, loaded only when a project has surveys.
 * At setup it hands the client its survey methods; once started (at once when the script tag
 * loaded the file, which it does only when the remote config says the project has surveys; for an
 * npm import, when a remote config says so) it loads the definitions and shows what matches. It
 * hears every captured event (beforeCapture) for the surveys that an event triggers.
 */
import type { Extension, ExtensionContext } from '../../browser/features/feature';
import type { RemoteConfig } from '../../browser/features/hooks';
import { surveyMethods } from './api';
import { createManager } from './manager';

/** posthog-js's rule: `surveys` is true, or a non-empty list. */
const hasSurveys = (remote: RemoteConfig): boolean =>
  remote.surveys === true || (Array.isArray(remote.surveys) && remote.surveys.length > 0);

/** `startAtOnce`: the remote config already asked for surveys (the script tag's loader fetched the file). */
export function createSurveysExtension(startAtOnce: boolean): Extension {
  return {
    name: 'surveys',
    setup(context: ExtensionContext) {
      const manager = createManager(context);
      context.provide(surveyMethods(context, manager));
      return {
        beforeCapture(draft) {
          // After this capture is done: a survey shown now would capture inside a capture.
          if (manager.triggers.hear(String(draft.input.event), draft.input.properties as Record<string, unknown> | undefined)) {
            setTimeout(manager.evaluate);
          }
        },
        onRemoteConfig: (remote) => hasSurveys(remote) && manager.start(),
        onLoaded: () => startAtOnce && manager.start(),
      };
    },
  };
}
