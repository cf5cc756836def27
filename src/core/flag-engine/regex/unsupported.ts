/**
 * A pattern the linear-time matcher does not run: a backreference or lookaround (no linear-time
 * algorithm exists for them), or syntax JavaScript and PostHog's server read differently. Local
 * evaluation then answers "inconclusive" and the server decides. A class because it is an error.
 */
export class UnsupportedRegexError extends Error {
  override name = 'UnsupportedRegexError' as const;
}
