/**
 * What every reader hands on: one call per record, in file order, synchronously while it scans a
 * piece of text. Push rather than an async iterator per record because an await per row cost more
 * than parsing it; the importer applies backpressure between pieces instead.
 */
export interface RecordSink {
  /** A parsed record; `line` is the 1-based line where it starts. */
  record(line: number, value: unknown): void;
  /** A record that could not be parsed; it still counts as a row so row numbers stay stable. */
  invalid(line: number, reason: string, raw: string): void;
  /** The column names of a CSV header, before its first record; may throw to stop the import. */
  header?(columns: readonly string[]): void;
}

export interface RecordReader {
  /** Feeds the next piece of decoded text; records found in it go to the sink before this returns. */
  write(text: string): void;
  /** The input ended; flushes a last record without a trailing newline. Throws on a truncated file. */
  end(): void;
  /**
   * Characters of all text written so far up to the end of the last record handed to the sink
   * (blank lines and a CSV header alone do not move it). The checkpoint keeps a digest of the input
   * through its last acknowledged row, and this is where that row ends.
   */
  recordEnd(): number;
  /**
   * No record handed to the sink later can end before this offset: the importer's input digest
   * may hash everything up to it instead of holding it. Usually recordEnd(); further on while a
   * record too long to keep (MAX_RECORD_CHARS) is being skipped.
   */
  settledThrough(): number;
}

/**
 * The longest record a reader keeps: far beyond any event the server takes (about 1 MB), and far
 * below V8's longest string (about 512 M characters), which one runaway line would otherwise hit.
 */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024;
/** What the rejects file keeps of a record over MAX_RECORD_CHARS. */
export const OVERSIZE_HEAD_CHARS = 200;

export function oversizeReason(what: string): string {
  return `${what} is longer than ${MAX_RECORD_CHARS / 1024 / 1024} M characters; the server takes events up to about 1 MB, so it was skipped without being read`;
}

/** The file's structure is broken beyond one row (e.g. an unterminated JSON array): stop the import. */
export class MalformedInputError extends Error {
  override name = 'MalformedInputError' as const;
}
