import { PostHog, type HogtailError } from '../../../src/node';

/**
 * A Node client for tests: no flush by count, no wait at process exit, and every error it reports
 * collected in `errors`. The caller shuts it down (each test file has its own clean-up list).
 */
export function collectingClient(host: string, options: ConstructorParameters<typeof PostHog>[1] = {}) {
  const client = new PostHog('phc_k', { host, flushAt: 1000, flushOnExitTimeout: 0, ...options });
  const errors: HogtailError[] = [];
  client.on('error', (error) => errors.push(error));
  return { client, errors };
}
