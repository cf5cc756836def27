/** The default ingestion host (PostHog Cloud US), one home for every client that needs it. */
export const DEFAULT_HOST = 'https://us.i.posthog.com';
