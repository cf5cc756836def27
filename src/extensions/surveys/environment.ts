/**
 * What the display conditions read (eligibility.ts), taken from the page and the client at the
 * moment they are checked: the URL, the device type (posthog-js's `$device_type`), the clock, the
 * elements on the page, the flags, and what the device remembers.
 */
import { describeUserAgent } from '../../browser/capture/user-agent';
import type { Hogtail } from '../../browser/hogtail';
import type { SurveyEnvironment } from './eligibility';
import { lastSeenAt, wasSeen } from './memory';

/** The user agent does not change while the page lives: read once. */
let deviceType: string | undefined;

export function pageEnvironment(client: Hogtail, activated: ReadonlySet<string>): SurveyEnvironment {
  return {
    href: location.href,
    deviceType: (deviceType ??= String(describeUserAgent(navigator.userAgent).$device_type)),
    now: Date.now(),
    lastShownAt: lastSeenAt(),
    activated,
    hasElement(selector) {
      try {
        return !!document.querySelector(selector);
      } catch {
        return false; // not a valid selector: nothing matches it
      }
    },
    flag: (key, sendEvent) => client.getFeatureFlag(key, { send_event: sendEvent }),
    wasSeen,
  };
}
