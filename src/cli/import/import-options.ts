/**
 * What an import is asked to do (the command line, parsed) and what it may touch (its io). Its own
 * file so the parts of an import can share them without importing one another.
 */
import type { Connection } from '../common/connection';
import type { InputFormat } from './input-format';
import type { Mapping } from './mapping';
import type { TimestampFormat } from './timestamp';

export interface ImportOptions {
  /** Paths; `-` is stdin. */
  files: string[];
  format: InputFormat | undefined;
  mapping: Mapping;
  timestampFormat: TimestampFormat;
  dryRun: boolean;
  resume: boolean;
  rejectsPath: string | undefined;
  checkpointPath: string | undefined;
  sourceId: string | undefined;
  /** Events per request. */
  batchSize: number;
  /** Rows per chunk at most (a chunk normally closes at batchSize events). */
  chunkRows: number;
  retries: number;
  /** Per request, in ms. */
  timeoutMs: number;
  /** gzip level for request bodies (1 fastest, 9 smallest). */
  compressionLevel: number;
  /** Undefined only for a dry run. */
  connection: Connection | undefined;
}

export interface ImportIo {
  stdin: NodeJS.ReadableStream;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  isTTY: boolean;
  cwd: string;
  /** Subscribes to Ctrl-C (and SIGTERM); returns an unsubscribe. */
  onInterrupt: (handler: () => void) => () => void;
  /** Leaves at once, on a second Ctrl-C. */
  exitNow: (code: number) => void;
}
