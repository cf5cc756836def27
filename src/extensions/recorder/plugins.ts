/**
 * The rrweb plugins a recording runs, as the settings say: console logs (console-log.ts) and
 * network requests (network/plugin.ts, which never records the SDK's own requests to `api_host`).
 */
import type { ExtensionContext } from '../../browser/index';
import { HogtailError } from '../../core/errors';
import { textOf } from '../../core/text-of';
import { consoleLogPlugin } from './console-log';
import { networkPlugin } from './network/plugin';
import type { RecordPlugin } from './rrweb-types';
import type { RecorderSettings } from './settings';

/** Said once per page, not at each restart of the recording. */
const warned = new Set<string>();

export function recordingPlugins(context: ExtensionContext, settings: RecorderSettings): RecordPlugin[] {
  const plugins: RecordPlugin[] = settings.console ? [consoleLogPlugin] : [];
  const network = settings.network;
  if (!network) return plugins;
  if (network.warning && !warned.has(network.warning)) console.warn('[hogtail] ' + network.warning);
  if (network.warning) warned.add(network.warning);
  const maskFailed = (error: unknown) =>
    context.report(
      new HogtailError(
        `session replay: session_recording's network mask function threw (${textOf(error)}); the requests it throws on are left out of the recording; make it return the request, or null to leave one out`,
      ),
    );
  plugins.push(networkPlugin({ settings: network, host: context.host, endpoint: settings.endpoint, maskFailed }));
  return plugins;
}
