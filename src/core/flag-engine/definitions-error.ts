/** Flag definitions that cannot be used; the message names every problem with its place. */
export class FlagDefinitionsError extends Error {
  override name = 'FlagDefinitionsError' as const;
  constructor(readonly problems: readonly string[]) {
    super(`invalid flag definitions:\n  ${problems.join('\n  ')}`);
  }
}
