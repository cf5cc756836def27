/**
 * The dead clicks extension: once `capture_dead_clicks` or the project's remote
 * `captureDeadClicks` turns it on (wanted.ts), every click is watched (detector.ts) and a dead one
 * is sent as posthog-js sends it: `$dead_click` at the click's time, with the `$dead_click_*`
 * timings and the clicked element described as autocapture describes it (`$elements_chain`,
 * `$el_text`, the same privacy rules), through the public client.
 */
import { describe, elementPath } from '../../browser/features/autocapture/describe';
import type { Extension, ExtensionContext } from '../../browser/features/feature';
import type { FeatureHooks } from '../../browser/features/hooks';
import { safely } from '../common/report';
import { createDeadClickDetector } from './detector';
import { deadClickSettings } from './settings';
import { deadClicksWanted } from './wanted';

export const DEAD_CLICKS = 'dead-clicks';

const EDITABLE = 'input,textarea,[contenteditable]:not([contenteditable=false])';

function start(context: ExtensionContext): void {
  const { client, config } = context;
  const settings = deadClickSettings(config);
  const describeSettings = {
    maskText_: !!config.mask_all_text,
    maskAttributes_: !!config.mask_all_element_attributes,
    ignoredAttributes_: settings.ignoredAttributes,
  };
  const detector = createDeadClickDetector(settings, ({ node, at }, timings) =>
    client.capture(
      '$dead_click',
      { ...describe(elementPath(node), 'click', describeSettings, location.host), ...timings },
      { timestamp: new Date(at) },
    ),
  );
  const safe = <A extends unknown[]>(what: string, fn: (...args: A) => void) => safely(context, DEAD_CLICKS, what, fn);
  // A caret moving in plain text is every click's doing; only a range, or typing, is a reaction.
  let hadRange = false;
  const selection = safe('a selection change', () => {
    const range = document.getSelection()?.type === 'Range';
    if (range || hadRange || document.activeElement?.matches(EDITABLE)) detector.selectionChanged();
    hadRange = range;
  });
  const listen = { capture: true, passive: true };
  addEventListener('click', safe('a click', detector.click), listen);
  addEventListener('scroll', safe('a scroll', detector.scrolled), listen);
  document.addEventListener('selectionchange', selection);
  document.addEventListener('visibilitychange', safe('a visibility change', detector.liveness));
  addEventListener('focus', safe('a focus change', detector.liveness));
  addEventListener('blur', safe('a focus change', detector.liveness));
  new MutationObserver(safe('a DOM change', detector.mutated)).observe(document, {
    attributes: true,
    characterData: true,
    childList: true,
    subtree: true,
  });
}

export const deadClicks: Extension = {
  name: DEAD_CLICKS,
  setup(context): FeatureHooks {
    let started = false;
    const startIfWanted = (remote = context.remoteConfig()) => {
      if (started || !deadClicksWanted(context.config, remote)) return;
      started = true;
      start(context);
    };
    startIfWanted();
    return { onRemoteConfig: startIfWanted };
  },
};
