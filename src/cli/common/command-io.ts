/**
 * What `hogtail import` and `hogtail capture` get from the process (or from a test): environment,
 * streams, and a way to hear Ctrl-C.
 */
export interface CommandIo {
  env: Record<string, string | undefined>;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Whether stderr is a terminal: a redrawn progress bar there, plain lines otherwise. */
  isTTY: boolean;
  /** Working directory for default checkpoint and rejects files. Default process.cwd(). */
  cwd?: string;
  /** Ctrl-C subscription. Default: process SIGINT and SIGTERM. */
  onInterrupt?: (handler: () => void) => () => void;
}

/** Subscribes to SIGINT and SIGTERM; returns the unsubscribe. */
export function defaultInterrupt(handler: () => void): () => void {
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
