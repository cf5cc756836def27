/**
 * Thrown inside the engine when a filter cannot be decided with what it was given; the flag's
 * evaluation turns it into an inconclusive outcome (never seen by callers as an exception). A class
 * because it is an error; the house rule keeps classes for errors only.
 */
export class InconclusiveMatchError extends Error {
  override name = 'InconclusiveMatchError' as const;
}
