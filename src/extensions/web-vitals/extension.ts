/**
 * The web vitals extension: once the init option or the project's remote config turns it on
 * (wanted.ts), LCP, CLS, FCP and INP are measured as Google's web-vitals measures them
 * (metrics.ts), and each page's metrics leave as one `$web_vitals` event (buffer.ts) through the
 * public client (opt-out, consent and before_send apply): when every allowed metric is in, 5 s
 * after the page's first one, on the next route's `$pageview`, and when the page is hidden or left
 * (the metrics final at hidden are read first).
 */
import type { Extension, ExtensionContext } from '../../browser/features/feature';
import type { FeatureHooks } from '../../browser/features/hooks';
import { safely } from '../common/report';
import { createVitalsBuffer, type VitalsBuffer } from './buffer';
import { observeVitals, type Metric } from './metrics';
import { vitalsSettings } from './settings';
import { pageUrl } from '../common/page-url';
import { webVitalsWanted } from './wanted';

export const WEB_VITALS = 'web-vitals';

function start(context: ExtensionContext): VitalsBuffer {
  const { client, config } = context;
  const settings = () => vitalsSettings(config, context.remoteConfig());
  const buffer = createVitalsBuffer(settings, (properties) => client.capture('$web_vitals', properties));
  const add = safely(context, WEB_VITALS, 'a metric', (metric: Metric) => buffer.add(metric, pageUrl(context), client.get_session_id()));
  const vitals = observeVitals(settings().metrics, add);
  const hidden = safely(context, WEB_VITALS, 'sending at hidden', () => {
    if (document.visibilityState !== 'hidden') return;
    vitals.hidden();
    buffer.flush();
    // The queue's own flush at hidden ran before this listener: send what was just added.
    void client.flush();
  });
  document.addEventListener('visibilitychange', hidden);
  return buffer;
}

export const webVitals: Extension = {
  name: WEB_VITALS,
  setup(context): FeatureHooks {
    let buffer: VitalsBuffer | undefined;
    // The remote config as told (an extension's hook may run before the context has it).
    const startIfWanted = (remote = context.remoteConfig()) => {
      // posthog-js measures only pages served over http(s).
      if (buffer || !/^https?:$/.test(location.protocol) || !webVitalsWanted(context.config, remote)) return;
      buffer = start(context);
    };
    startIfWanted();
    return {
      onRemoteConfig: startIfWanted,
      // A new route's page view: the previous route's metrics leave (just after this event).
      beforeCapture(draft) {
        const url = pageUrl(context);
        if (buffer && draft.input.event === '$pageview') queueMicrotask(() => buffer?.moved(url));
      },
      // pagehide, before the unload beacon is built: what is gathered leaves with the page.
      onUnload: () => buffer?.flush(),
    };
  },
};
