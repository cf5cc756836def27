/**
 * Properties of the browser that do not change while a page is open, read once per page
 * (page-context.ts): its time zone and language, which PostHog's web analytics break down by, and
 * the raw user agent (cut as posthog-js cuts it), from which PostHog can re-derive what hogtail's
 * short user-agent reader does not.
 */
import { attempt } from '../../core/safe-json';

export function localeProperties(): Record<string, unknown> {
  const language = navigator.language;
  const agent = navigator.userAgent;
  return {
    $timezone: attempt(() => Intl.DateTimeFormat().resolvedOptions().timeZone, undefined),
    $timezone_offset: new Date().getTimezoneOffset(),
    $browser_language: language,
    $browser_language_prefix: language?.split('-')[0],
    $raw_user_agent: agent.length > 1000 ? agent.slice(0, 997) + '...' : agent,
  };
}
