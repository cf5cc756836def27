/**
 * The React context: the client and the bootstrap flags the page was rendered with. Without a
 * provider, hooks use the package's default instance, as posthog-js/react does.
 */
import { createContext } from 'react';
// The package root, not ../browser: the bindings then use the very instance the app imports (one
// client per page), and under server rendering the root's safe no-op client.
import hogtail from 'hogtail';
import type { BootstrapFlags, PostHogClient } from './client-type';

export interface PostHogContextValue {
  client: PostHogClient;
  bootstrap?: BootstrapFlags | undefined;
}

export const PostHogContext = createContext<PostHogContextValue>({ client: hogtail as PostHogClient, bootstrap: undefined });
