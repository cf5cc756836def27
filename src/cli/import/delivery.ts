/**
 * The importer's side of the Node client: sends rows with `historicalMigration` (strictly ordered,
 * one request in flight, gzip, the client's retries) and answers one question per chunk of rows:
 * has the server acknowledged all of it? Only then may the checkpoint move past it.
 *
 * Chunks are pipelined: while the client delivers chunk n, rows of chunk n+1 are read and captured,
 * so reading, compressing and the network overlap; the importer bounds how many chunks are open,
 * which bounds memory.
 */
import type { HogtailError } from '../../core/errors';
import { gzip } from 'node:zlib';
import { PostHog } from '../../node/client';
import type { Connection } from '../common/connection';
import { outcomeOf } from '../common/client-outcome';
import type { RejectEntry } from './rejects-file';
import type { MappedEvent } from './row-to-event';
import type { RowUuids } from './row-uuid';

export interface Chunk {
  sourceIndex: number;
  sourceLabel: string;
  uuids: RowUuids;
  /** First row of the chunk (0-based within its source). */
  startRow: number;
  /** One past the last row; set when the chunk closes. */
  endRow: number;
  /** The source ended with this chunk. */
  complete: boolean;
  /** Line of each row from startRow on, to name the line of a row the server refuses. */
  lines: number[];
  /** Rows sent under their own uuid (not derivable from the row number): uuid → row. */
  ownUuids: Map<string, number> | undefined;
  /** Rows refused locally or by the server; written to the rejects file once the chunk is acknowledged. */
  rejects: RejectEntry[];
  /** Rows handed to the client in this chunk. */
  captured: number;
  /** Of those, rows the server refused (400/413 for that event alone). */
  refusedByServer: number;
  /** Decoded characters read while the chunk was open: a memory estimate for backpressure. */
  chars: number;
  /** Events captured in this run up to the end of this chunk. */
  capturedThrough: number;
  flushed: Promise<void> | undefined;
  /** Digest of the source's text through endRow (input-digest.ts), for the checkpoint; set on close. */
  digest: string;
}

export interface DeliveryOptions {
  connection: Connection;
  batchSize: number;
  retries: number;
  /** Per request: how long to wait for the server's answer before counting the attempt as failed. */
  timeoutMs: number;
  /** zlib level 1-9 for request bodies. */
  compressionLevel: number;
  /**
   * Chunks not yet acknowledged, the one still being filled included (batches leave while it is
   * open), to attribute a server refusal to its row.
   */
  openChunks: () => readonly Chunk[];
}

export interface Delivery {
  /** Hands one row to the client; returns the reason when the client refuses it at capture. */
  capture(event: MappedEvent, uuid: string): string | undefined;
  /** Asks the client to deliver everything captured so far; call when a chunk closes. */
  close(chunk: Chunk): void;
  /** Waits for a chunk; true when every row of it is acknowledged (or refused on its own). */
  acknowledge(chunk: Chunk): Promise<boolean>;
  /** Why delivery cannot go on (bad key, server unreachable); undefined while all is well. */
  readonly failure: string | undefined;
  /** uuids the server refused that match no unacknowledged row: a bug, reported, never ignored. */
  readonly unmatchedRefusals: readonly string[];
  readonly delivered: number;
  /** Rows handed to the client so far. */
  readonly captured: number;
  shutdown(timeoutMs: number): Promise<void>;
}

/**
 * The client's default is level 6. A migration sends one request at a time, so compression time is
 * latency on the critical path; the bench shows level 1 costs a third of the CPU for a few more
 * bytes on the wire (event JSON from one export is very repetitive either way).
 */
function gzipFast(body: string, level: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    gzip(body, { level }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

// The client's answer for a request that can never succeed, whatever it carries.
const FATAL_STATUSES = new Set([401, 403, 404, 405]);

/** The server client the importer sends through: historical, gzip'd, ordered, and never evicting a row. */
function importClient(options: DeliveryOptions): PostHog {
  const { connection, batchSize } = options;
  return new PostHog(connection.apiKey, {
    host: connection.host,
    historicalMigration: true,
    compression: 'gzip',
    compressor: (body) => gzipFast(body, options.compressionLevel),
    flushAt: batchSize,
    flushInterval: 1_000,
    maxBatchSize: batchSize,
    // The importer bounds what is open; the client's own caps must never evict (that would lose rows).
    maxQueueSize: Number.MAX_SAFE_INTEGER,
    maxQueueBytes: Number.MAX_SAFE_INTEGER,
    // Not fetchRetryCount, which drops a batch after its retries and goes on with the next: an
    // import must stop there in order, the rows kept for --resume.
    retry: { maxAttempts: options.retries },
    requestTimeout: options.timeoutMs,
    flushOnExitTimeout: 0,
  });
}

/** Counts a refusal against the open chunk that holds the row, with the row as its reject; else keeps its uuid. */
function attributeRefusal(options: DeliveryOptions, unmatched: string[], uuid: string, reason: string): void {
  for (const chunk of options.openChunks()) {
    const row = chunk.ownUuids?.get(uuid) ?? chunk.uuids.rowOf(uuid);
    if (row === undefined || row < chunk.startRow || row >= chunk.startRow + chunk.lines.length) continue;
    chunk.refusedByServer++;
    chunk.rejects.push({
      source: chunk.sourceLabel,
      line: chunk.lines[row - chunk.startRow]!,
      row,
      reason: `refused by the server: ${reason}`,
    });
    return;
  }
  unmatched.push(uuid);
}

export function createDelivery(options: DeliveryOptions): Delivery {
  const client = importClient(options);

  let capturing = false;
  let refusal: string | undefined;
  let captured = 0;
  let refusedByServer = 0;
  let failure: string | undefined;
  let lastTransportProblem = '';
  let shuttingDown = false;
  const unmatchedRefusals: string[] = [];

  client.on('error', (error: HogtailError) => {
    if (capturing) {
      // Reported synchronously from inside capture(): this row never entered the queue.
      refusal = error.message;
      return;
    }
    if (shuttingDown) return;
    const outcome = outcomeOf(error);
    if (outcome.kind === 'retrying') {
      lastTransportProblem = outcome.problem;
      return;
    }
    if (outcome.kind !== 'dropped') return;
    const { reason, status, uuids } = outcome;
    if ((reason === 'rejected' || reason === 'too_large') && !(status !== undefined && FATAL_STATUSES.has(status))) {
      refusedByServer += uuids.length;
      for (const uuid of uuids) attributeRefusal(options, unmatchedRefusals, uuid, error.message);
      return;
    }
    failure ??= `${uuids.length} event(s) were not accepted: ${error.message}`;
  });

  return {
    capture(event, uuid) {
      refusal = undefined;
      capturing = true;
      try {
        client.capture({
          distinctId: event.distinctId,
          event: event.event,
          properties: event.properties,
          timestamp: event.timestamp,
          uuid,
        });
      } catch (error) {
        // capture() is not meant to throw; if a row still makes it, that row is rejected, not the import.
        return `could not be prepared for sending (${error instanceof Error ? error.message : String(error)})`;
      } finally {
        capturing = false;
      }
      if (refusal !== undefined) return refusal;
      captured++;
      return undefined;
    },
    close(chunk) {
      chunk.capturedThrough = captured;
      chunk.flushed = chunk.captured > 0 ? client.flush() : undefined;
    },
    async acknowledge(chunk) {
      if (chunk.flushed !== undefined) await chunk.flushed;
      if (failure !== undefined) return false;
      // Ordered delivery: once this many events are settled, every event of the chunk is.
      if (client.stats().delivered + refusedByServer >= chunk.capturedThrough) return true;
      // flush() gives up waiting once the client's retries stall; the rows are not acknowledged.
      failure = `the server did not accept events after ${options.retries} attempts (${lastTransportProblem || 'no answer'})`;
      return false;
    },
    get failure() {
      return failure;
    },
    unmatchedRefusals,
    get delivered() {
      return client.stats().delivered;
    },
    get captured() {
      return captured;
    },
    async shutdown(timeoutMs) {
      shuttingDown = failure !== undefined || timeoutMs === 0;
      if (shuttingDown) {
        await client.shutdown(0);
        return;
      }
      await client.shutdown(timeoutMs);
    },
  };
}
