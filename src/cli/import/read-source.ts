/**
 * One source, start to end: skip the rows an earlier run had acknowledged (checking that they are
 * unchanged), then turn each further row into an event or a reject, and cut the rows into chunks,
 * each normally one request's worth, that the window settles as the server acknowledges them.
 *
 * Rows are numbered per source from 0, rejected ones included, so a row's number (and with it its
 * uuid) never depends on which other rows were valid, and --resume can skip by number.
 */
import type { SourceProgress } from './checkpoint';
import { changedInputMessage } from './checkpoint-match';
import type { ChunkWindow } from './chunk-window';
import { missingCsvColumn } from './csv-columns';
import type { Chunk, Delivery } from './delivery';
import { createInputDigest } from './input-digest';
import { createReader, createSniffingReader, formatFromName, type InputFormat } from './input-format';
import type { Mapping } from './mapping';
import type { OpenedSource } from './open-source';
import { MalformedInputError, type RecordReader, type RecordSink } from './record-sink';
import type { RejectEntry } from './rejects-file';
import { createRowMapper } from './row-to-event';
import { createRowUuids } from './row-uuid';
import { EXIT_FAILED, EXIT_USAGE, InputChanged, StopImport } from './stop-import';
import type { TimestampFormat } from './timestamp';

const NOT_UTF8 =
  'has bytes that are not UTF-8 (the file is in another encoding, or damaged); they would be stored as U+FFFD, so the row is not sent. ' +
  'Convert the file to UTF-8 (e.g. iconv -f WINDOWS-1252 -t UTF-8) or correct the row';

/** What the whole import counts, shown by the progress line and the summary. */
export interface ImportCounters {
  rowsRead: number;
  skippedOnResume: number;
  /** Rows that would be sent (dry run). */
  valid: number;
  rejected: number;
  sent: number;
}

export interface SourceRun {
  source: OpenedSource;
  index: number;
  /** The checkpoint's record of this source; `rows` are skipped. */
  progress: SourceProgress;
  format: InputFormat | undefined;
  mapping: Mapping;
  timestampFormat: TimestampFormat;
  /** Events per request: a chunk closes once it holds this many events. */
  batchSize: number;
  /** Rows per chunk at most, rejected ones included. */
  chunkRows: number;
  /** Undefined for a dry run. */
  delivery: Delivery | undefined;
  window: ChunkWindow;
  counters: ImportCounters;
  checkpointPath: string | undefined;
  /** Rows the checkpoint counted as sent before this run: what deleting it would send twice. */
  previouslySent: number;
  /** True once Ctrl-C asked the import to stop. */
  stopping(): boolean;
  /** The chunk being filled, for attributing a server refusal while it is still open. */
  setOpenChunk(chunk: Chunk | undefined): void;
}

/** How reading ended: all of it, or stopped early (Ctrl-C, delivery failed, or `problem`). */
export interface SourceOutcome {
  finished: boolean;
  /** The input is broken (exit 1) or the command line does not fit it (exit 2). */
  problem: StopImport | undefined;
}

/** The input is not the one the checkpoint acknowledged rows of: `detail` says how. */
const inputChanged = ({ source, checkpointPath, previouslySent }: SourceRun, detail: string) =>
  new InputChanged(changedInputMessage(source.label, source.path !== undefined, detail, checkpointPath!, previouslySent), EXIT_USAGE);

/** A chunk of rows from `startRow` on, nothing in it yet. */
function emptyChunk(sourceIndex: number, sourceLabel: string, uuids: Chunk['uuids'], startRow: number): Chunk {
  return {
    sourceIndex,
    sourceLabel,
    uuids,
    startRow,
    endRow: startRow,
    complete: false,
    lines: [],
    ownUuids: undefined,
    rejects: [],
    captured: 0,
    refusedByServer: 0,
    chars: 0,
    capturedThrough: 0,
    flushed: undefined,
    digest: '',
  };
}

/** Hands the input to `reader` piece by piece (`onPiece` first), waiting for room in the delivery window; stops once `goOn` says so. */
async function feed(
  source: SourceRun['source'],
  reader: RecordReader,
  digest: ReturnType<typeof createInputDigest>,
  window: SourceRun['window'],
  onPiece: (text: string) => void,
  goOn: () => boolean,
): Promise<void> {
  for await (const text of source.text) {
    onPiece(text);
    digest.add(text);
    reader.write(text);
    digest.settle(reader.settledThrough());
    await window.makeRoom();
    if (!goOn()) return;
  }
}

export async function readSource(run: SourceRun): Promise<SourceOutcome> {
  const { source, index, delivery, window, counters } = run;
  const skip = run.progress.rows;
  const uuids = createRowUuids(source.identity);
  const digest = createInputDigest();
  const declared = run.format ?? formatFromName(source.label);
  let fromCsv = declared === 'csv';
  const mapRowFor = {
    csv: createRowMapper(run.mapping, run.timestampFormat, true),
    other: createRowMapper(run.mapping, run.timestampFormat, false),
  };
  let row = 0;

  const newChunk = (): Chunk => {
    const fresh = emptyChunk(index, source.label, uuids, Math.max(row, skip));
    run.setOpenChunk(fresh);
    return fresh;
  };
  let chunk = newChunk();

  const closeChunk = (complete: boolean): void => {
    // Stopped while still skipping acknowledged rows: the checkpoint already says all there is.
    if (row < skip) return;
    chunk.endRow = row;
    chunk.complete = complete;
    chunk.digest = digest.through(reader.recordEnd());
    delivery?.close(chunk);
    window.push(chunk);
    chunk = newChunk();
  };

  const reject = (line: number, reason: string, entry: Partial<RejectEntry>): void => {
    chunk.rejects.push({ source: source.label, line, row: row - 1, reason, ...entry });
  };

  const send = (line: number, value: unknown): void => {
    const mapped = (fromCsv ? mapRowFor.csv : mapRowFor.other)(value);
    if (!mapped.ok) return reject(line, mapped.reason, { record: value });
    if (delivery === undefined) {
      counters.valid++;
      return;
    }
    const own = mapped.value.uuid;
    if (own !== undefined) (chunk.ownUuids ??= new Map()).set(own, row - 1);
    const refusal = delivery.capture(mapped.value, own ?? uuids.uuidOf(row - 1));
    if (refusal !== undefined) reject(line, refusal, { record: value });
    else chunk.captured++;
  };

  const handle = (line: number, value: unknown, parseError: string | undefined, raw: string | undefined): void => {
    row++;
    counters.rowsRead++;
    const notUtf8 = source.takeInvalidUtf8(reader.recordEnd());
    if (row <= skip) {
      counters.skippedOnResume++;
      if (row === skip && run.progress.digest !== undefined && digest.through(reader.recordEnd()) !== run.progress.digest) {
        throw inputChanged(run, `its first ${skip} rows differ from the ones acknowledged`);
      }
      return;
    }
    chunk.lines.push(line);
    if (notUtf8) reject(line, NOT_UTF8, parseError === undefined ? { record: value } : { raw });
    else if (parseError !== undefined) reject(line, parseError, { raw });
    else send(line, value);
    if (chunk.lines.length >= run.chunkRows || chunk.captured >= run.batchSize) closeChunk(false);
  };

  const sink: RecordSink = {
    record: (line, value) => handle(line, value, undefined, undefined),
    invalid: (line, reason, raw) => handle(line, undefined, reason, raw),
    header: (columns) => checkCsvHeader(run, source, columns),
  };
  const reader =
    declared !== undefined
      ? createReader(declared, sink)
      : createSniffingReader(sink, (format) => {
          fromCsv = format === 'csv';
        });

  const goOn = (): boolean => !run.stopping() && delivery?.failure === undefined;
  let finished = false;
  let problem: StopImport | undefined;
  try {
    await feed(source, reader, digest, window, (text) => (chunk.chars += text.length), goOn);
    if (goOn()) {
      checkNotShrunk(source);
      reader.end();
      finished = true;
      if (row < skip) throw inputChanged(run, `it now ends after ${row} rows; the checkpoint had acknowledged ${skip}`);
    }
  } catch (error) {
    if (error instanceof InputChanged) throw error;
    problem = asStopImport(source, error);
  }
  // A command line that does not fit the input handled none of its rows: nothing to record.
  if (delivery?.failure === undefined && problem?.code !== EXIT_USAGE) closeChunk(finished);
  run.setOpenChunk(undefined);
  return { finished, problem };
}

/** What stopped reading a source, as the importer reports it (with advice where there is some). */
function asStopImport(source: OpenedSource, error: unknown): StopImport {
  return error instanceof StopImport
    ? error
    : new StopImport(`${source.label}: ${(error as Error).message}`, EXIT_FAILED, adviceFor(error));
}

/** A CSV header that lacks a column the mapping names stops the import before any row. */
function checkCsvHeader(run: SourceRun, source: OpenedSource, columns: readonly string[]): void {
  const missing = missingCsvColumn(run.mapping, columns, source.label);
  if (missing !== undefined) throw new StopImport(missing, EXIT_USAGE);
}

/**
 * A file that got shorter while it was read (truncated, or rewritten by its producer) ended early:
 * the rows past the cut were never read. Its last, cut-off line is not handed to the reader, so
 * the checkpoint stops at the last whole row and a resume of the restored file continues there.
 */
function checkNotShrunk(source: OpenedSource): void {
  if (source.sizeBytes === undefined || source.bytesRead() >= source.sizeBytes) return;
  throw new StopImport(
    `${source.label} shrank while it was being read: it had ${source.sizeBytes} bytes when the import started, and only ${source.bytesRead()} could be read; the rows after that were not sent`,
    EXIT_FAILED,
    'Restore the complete file (as it was when the import started), then run the same command with --resume.',
  );
}

/**
 * What to do about an input that cannot be read on. A broken file has to be corrected, and a
 * corrected file is a changed file, which --resume refuses (its rows would get other uuids); so
 * the rest goes in a new file. A read error of the device is worth retrying as it is.
 */
function adviceFor(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  const broken = error instanceof MalformedInputError || (typeof code === 'string' && code.startsWith('Z_'));
  return broken ? BROKEN_INPUT_ADVICE : undefined;
}

export const BROKEN_INPUT_ADVICE =
  'The rows before that point were sent and are recorded in the checkpoint, so do not import this file again: ' +
  'a corrected file is a changed file, which --resume refuses. Put the rows from that point on into a new file, ' +
  'correct them there, and import that file.';
