/**
 * The app's network mask function applies to the recorded page's own URL too, as in posthog-js:
 * an app that strips a token from request URLs expects the page address in the recording (rrweb's
 * meta event, `href`) stripped the same way. `maskCapturedNetworkRequestFn` gets `{ name: url }`,
 * the older `maskNetworkRequestFn` `{ url }`; when it returns nothing (or throws) the meta event is
 * left out, as posthog-js leaves it out.
 */
import type { HogtailConfig } from '../../../browser/index';
import { isObject } from '../../../core/special-events';
import { META, type RecordedEvent } from '../rrweb-types';

type UrlMask = (url: string) => string | undefined;

/** The page URL's mask from the init options, or undefined when the app gave no mask function. */
export function pageUrlMask(config: HogtailConfig): UrlMask | undefined {
  const local = isObject(config.session_recording) ? config.session_recording : {};
  const captured = local.maskCapturedNetworkRequestFn;
  const older = local.maskNetworkRequestFn;
  if (typeof captured === 'function') return (url) => (captured as (r: { name: string }) => { name?: string } | null)({ name: url })?.name;
  if (typeof older === 'function') return (url) => (older as (r: { url: string }) => { url?: string } | null)({ url })?.url;
  return undefined;
}

/** `event` with its page URL masked; undefined to leave the event out. Events other than meta pass as they are. */
export function maskMetaEvent(event: RecordedEvent, mask: UrlMask | undefined): RecordedEvent | undefined {
  if (!mask || event.type !== META) return event;
  const data = event.data as { href?: string };
  let href: string | undefined;
  try {
    href = typeof data.href === 'string' ? mask(data.href) : data.href;
  } catch {
    href = undefined; // a mask that fails must not let the URL through
  }
  return href ? { ...event, data: { ...data, href } } : undefined;
}
