/**
 * How an import ends early, and the exit codes it ends with. A StopImport carries its exit code and
 * the message that says what to do next; run-import.ts prints it.
 */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

export class StopImport extends Error {
  override name: string = 'StopImport';
  constructor(
    message: string,
    readonly code: number,
    /** What to do next, when it is not "fix the problem and --resume". */
    readonly advice?: string,
  ) {
    super(message);
  }
}

/** The input is not what the checkpoint describes: leave at once, the checkpoint untouched. */
export class InputChanged extends StopImport {
  override name = 'InputChanged';
}
