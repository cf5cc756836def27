/**
 * Opens one input (a file, or stdin for `-`) as a stream of text, gunzipping transparently when the
 * first bytes are gzip's magic number (names lie; magic bytes do not) and dropping a leading UTF-8
 * byte order mark (Excel and Windows tools write one; it would glue itself to the first JSON row
 * or CSV column name), noting bytes that are not UTF-8 so their rows are rejected rather than stored
 * with U+FFFD in them (utf8-decoder.ts), and works out the source's identity: the seed of every row's uuid, so a re-run sends the same uuids for the same rows.
 *
 * Identity = sha256 of the absolute path, the size and the first 64 KB, or of --source-id. The
 * content prefix makes a different file at the same path a different source; the path and size keep
 * two exports that start alike apart. Stdin has no path, so it is identified by its first 64 KB:
 * pipe the same data again and the rows get the same uuids (use --source-id to be explicit).
 *
 * Location = where the input lives (the absolute path, or --source-id; for stdin its identity). It
 * names the checkpoint, so a file edited after an interrupted run still finds its checkpoint and the
 * change is refused, instead of looking like new input and being sent again under new uuids.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { createUtf8Decoder } from './utf8-decoder';

const IDENTITY_PREFIX_BYTES = 64 * 1024;
/** Big reads: the importer is throughput-bound and a megabyte is still constant memory. */
const READ_CHUNK_BYTES = 1024 * 1024;
const BYTE_ORDER_MARK = 0xfeff;

export interface OpenedSource {
  /** The path as given, or 'stdin'. */
  label: string;
  /** 64 hex digits. */
  identity: string;
  /** What names the checkpoint: stays the same when the file's content changes. */
  location: string;
  /** Absolute path; undefined for stdin. */
  path: string | undefined;
  /** Size on disk (compressed if gzipped); undefined for stdin. */
  sizeBytes: number | undefined;
  gzip: boolean;
  /** Decoded UTF-8 text, piece by piece. */
  text: AsyncIterable<string>;
  /** Bytes consumed from the file or stdin so far (before decompression), for progress. */
  bytesRead(): number;
  /**
   * Whether bytes that are not UTF-8 were found in the text before `offset` (characters since the
   * start) and not asked about yet: the caller asks once per record, at its end.
   */
  takeInvalidUtf8(before: number): boolean;
  close(): void;
}

/** A file to read, by its path from `cwd`; throws (ENOENT with the path) when it is not a readable file. */
async function openFile(path: string, cwd: string): Promise<{ raw: NodeJS.ReadableStream; absolute: string; sizeBytes: number }> {
  const absolute = resolve(cwd, path);
  const info = await stat(absolute); // throws ENOENT with the path, which the command reports
  if (!info.isFile()) throw new Error(`${path} is not a file`);
  return { raw: createReadStream(absolute, { highWaterMark: READ_CHUNK_BYTES }), absolute, sizeBytes: info.size };
}

/** The first IDENTITY_PREFIX_BYTES (or all, if the input is shorter), kept to be read again; `ended`: nothing came after. */
async function readHead(iterator: AsyncIterator<Buffer | string>): Promise<{ head: Buffer[]; ended: boolean }> {
  const head: Buffer[] = [];
  let headBytes = 0;
  while (headBytes < IDENTITY_PREFIX_BYTES) {
    const next = await iterator.next();
    if (next.done) return { head, ended: true };
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    head.push(chunk);
    headBytes += chunk.length;
  }
  return { head, ended: false };
}

export async function openSource(
  path: string,
  stdin: NodeJS.ReadableStream,
  sourceId: string | undefined,
  cwd: string,
): Promise<OpenedSource> {
  const isStdin = path === '-';
  const { raw, absolute, sizeBytes } = isStdin ? { raw: stdin, absolute: 'stdin', sizeBytes: undefined } : await openFile(path, cwd);
  const iterator = (raw as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  const { head, ended } = await readHead(iterator);
  const prefix = Buffer.concat(head).subarray(0, IDENTITY_PREFIX_BYTES);
  const hash = createHash('sha256');
  if (sourceId !== undefined) hash.update(`source-id\0${sourceId}`);
  else hash.update(`${absolute}\0${sizeBytes ?? ''}\0`).update(prefix);
  const identity = hash.digest('hex');
  const location = sourceId !== undefined ? `source-id\0${sourceId}` : isStdin ? `stdin\0${identity}` : `file\0${absolute}`;
  const gzip = prefix.length >= 2 && prefix[0] === 0x1f && prefix[1] === 0x8b;

  let bytesRead = 0;
  const decoder = createUtf8Decoder();
  /** 1 once a leading byte order mark was dropped: the decoder's offsets are one ahead of the text. */
  let bomDropped = 0;
  let nextInvalid = 0;
  async function* rawChunks(): AsyncGenerator<Buffer> {
    for (const chunk of head) {
      bytesRead += chunk.length;
      yield chunk;
    }
    head.length = 0;
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
      bytesRead += chunk.length;
      yield chunk;
    }
  }

  async function* text(): AsyncGenerator<string> {
    let bytes: AsyncIterable<Buffer> = rawChunks();
    if (gzip) {
      // pipeline, not pipe: a read error or a corrupt gzip stream must surface in the loop below.
      const gunzip = createGunzip({ chunkSize: 256 * 1024 });
      pipeline(Readable.from(bytes, { objectMode: false }), gunzip, () => {});
      bytes = gunzip;
    }
    let first = true;
    const withoutBom = (piece: string): string => {
      if (!first || piece === '') return piece;
      first = false;
      if (piece.charCodeAt(0) !== BYTE_ORDER_MARK) return piece;
      bomDropped = 1;
      return piece.slice(1);
    };
    for await (const chunk of bytes) {
      const piece = withoutBom(decoder.write(chunk));
      if (piece !== '') yield piece;
    }
    const rest = withoutBom(decoder.end());
    if (rest !== '') yield rest;
  }

  return {
    label: isStdin ? 'stdin' : path,
    identity,
    location,
    path: isStdin ? undefined : absolute,
    sizeBytes,
    gzip,
    text: text(),
    bytesRead: () => bytesRead,
    takeInvalidUtf8(before) {
      const offsets = decoder.invalidAt;
      let found = false;
      while (nextInvalid < offsets.length && offsets[nextInvalid]! - bomDropped < before) {
        found = true;
        nextInvalid++;
      }
      return found;
    },
    close() {
      if (!isStdin) (raw as ReturnType<typeof createReadStream>).destroy();
    },
  };
}
