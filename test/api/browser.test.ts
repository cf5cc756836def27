// @vitest-environment happy-dom
/** In a page, a personal key would be readable by every visitor: the client refuses unless told otherwise. */
import { describe, expect, it } from 'vitest';
import { ApiBrowserError, createApiClient } from '../../src/api';

const options = { host: 'https://us.posthog.com', personalApiKey: 'phx_browserTestKey_0123456789', projectId: 1 };

describe('in a browser', () => {
  it('runs in a DOM environment', () => {
    expect(typeof window).toBe('object');
    expect(typeof document).toBe('object');
  });

  it('refuses to create a client with a personal key', () => {
    let error: unknown;
    try {
      createApiClient(options);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiBrowserError);
    expect(error).toMatchObject({ name: 'ApiBrowserError' });
    expect((error as Error).message).toMatch(/must\s+stay on a server/);
    expect((error as Error).message).toContain('allowBrowser');
    expect((error as Error).message).not.toContain(options.personalApiKey);
  });

  it('creates one with allowBrowser: true, without making a request', () => {
    const calls: string[] = [];
    const client = createApiClient({
      ...options,
      allowBrowser: true,
      fetch: async (input) => {
        calls.push(input);
        return new Response('{}');
      },
    });
    expect(Object.keys(client).sort()).toEqual([
      'explicitMembers',
      'exports',
      'groups',
      'query',
      'sessionRecordings',
      'sessions',
      'subscriptions',
    ]);
    expect(calls).toEqual([]);
  });
});
