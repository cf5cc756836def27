/**
 * Where a server client sends: the project key and the host, checked when the client is built so a
 * wrong one fails at once with what was passed and what is expected, instead of every request
 * being refused later.
 */
import { DEFAULT_HOST } from '../defaults';

/** The project key, or a TypeError saying what was passed instead. */
export function checkProjectKey(apiKey: unknown): string {
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    throw new TypeError("new PostHog(apiKey) needs your project's API key (phc_…) as the first argument.");
  }
  if (apiKey.startsWith('phx_')) {
    throw new TypeError(
      'the key passed to new PostHog() is a personal API key (phx_…). Capture needs the project API key (phc_…); keep personal keys for hogtail/api.',
    );
  }
  return apiKey;
}

/** An http(s) URL with a valid port, without a trailing slash; throws a TypeError saying what is wrong. */
export function resolveHost(host: unknown): string {
  const given = host ?? DEFAULT_HOST;
  const fail = (why: string) =>
    new TypeError(
      `the host option must be the http(s) URL of your PostHog instance, such as ${DEFAULT_HOST}; ${JSON.stringify(given)} ${why}.`,
    );
  if (typeof given !== 'string') throw fail('is not a string');
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    // Port 99999 lands here too: URL refuses ports over 65535.
    throw fail('is not a URL (or its port is out of range)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail(`uses ${url.protocol}, not http: or https:`);
  if (url.search || url.hash) throw fail('has a query or fragment');
  return given.trim().replace(/\/+$/, '');
}
