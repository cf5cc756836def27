/**
 * From wire bytes to parsed JSON: gzip, the legacy form and base64 encodings, with bounded inflation.
 */
import { isUtf8 } from 'node:buffer';
import { createGunzip } from 'node:zlib';
import { BUSY_REASON, type BudgetLease } from './budget';
import { scanJsonShape, MAX_NESTING_DEPTH } from './nesting';
import { refuse, type Refusal } from './types';

export interface DecodeContext {
  query: URLSearchParams;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  /** Cap on the inflated size, so a small gzip bomb cannot exhaust memory. */
  maxInflatedBytes: number;
  /** The request's share of the server's in-flight allowance; inflated bytes are taken from it. */
  lease: BudgetLease;
}

/**
 * `invalidUtf8`: the text had byte sequences that are not UTF-8, read as U+FFFD. The events are kept
 * (as the SDK meant them, mostly) but the dev page flags the fields that carry a replacement.
 */
export type Decoded =
  | {
      ok: true;
      value: unknown;
      invalidUtf8: boolean;
      text: string;
      /** The longest object or array at levels 1–3 of the text, in characters; see `JsonShape`. */
      longestContainer: readonly number[];
    }
  | (Refusal & { text?: string });

const GZIP_MAGIC_0 = 0x1f;
const MIN_INFLATE_CHUNK = 64 * 1024;
const MAX_INFLATE_CHUNK = 1024 * 1024;
const GZIP_MAGIC_1 = 0x8b;

/**
 * Turns a wire body into parsed JSON the way PostHog's capture does: gzip is recognised from any of
 * three signals, the Content-Type is not trusted (browsers send text/plain to skip the CORS
 * preflight), and the legacy posthog-js form body `data=<json or base64>` is unwrapped.
 */
export async function decodeBody(bytes: Buffer, context: DecodeContext): Promise<Decoded> {
  const compression = context.query.get('compression')?.toLowerCase();
  if (compression === 'lz64' || compression === 'lz-string') {
    return refuse(400, 'compression=lz64 is not supported by this collector; send gzip (compression=gzip-js) or plain JSON');
  }

  let payload = bytes;
  if (isGzip(bytes, compression, context.contentEncoding)) {
    const inflated = await inflate(bytes, context.maxInflatedBytes, context.lease);
    if (!inflated.ok) return inflated;
    payload = inflated.value;
  }

  let invalidUtf8 = !isUtf8(payload);
  let text = payload.toString('utf8');
  if (text.trim() === '') return refuse(400, 'the request body is empty');

  if (isFormBody(text, context.contentType)) {
    const data = new URLSearchParams(text).get('data');
    if (data === null) return { ...refuse(400, 'form body has no data= field'), text };
    ({ text, invalidUtf8 } = unwrapFormData(data, invalidUtf8));
  } else if (compression === 'base64') {
    ({ text, invalidUtf8 } = fromBase64(text));
  }

  // Parsing is iterative but everything after it (validation, storage) recurses: refuse what would
  // overflow the stack as a bad request, not answer 500, which an SDK would retry for ever.
  const shape = scanJsonShape(text);
  if (shape.tooDeep) return { ...refuse(400, `the JSON is nested deeper than ${MAX_NESTING_DEPTH} levels`), text };
  try {
    return { ok: true, value: JSON.parse(text) as unknown, invalidUtf8, text, longestContainer: shape.longestContainer };
  } catch (error) {
    return { ...refuse(400, `malformed JSON: ${error instanceof Error ? error.message : String(error)}`), text };
  }
}

function isGzip(bytes: Buffer, compression: string | undefined, contentEncoding: string | undefined): boolean {
  if (compression === 'gzip' || compression === 'gzip-js') return true;
  if (contentEncoding !== undefined && /\bgzip\b/i.test(contentEncoding)) return true;
  return bytes[0] === GZIP_MAGIC_0 && bytes[1] === GZIP_MAGIC_1;
}

/**
 * zlib's 16 KiB pieces cost a 1 MB batch sixty callbacks and a copy of each. A gzip body ends with its
 * (last member's) inflated size, so the body usually inflates in one piece of that size; the trailer
 * is only a hint from the client, hence the clamp.
 */
function inflateChunkSize(bytes: Buffer): number {
  const declared = bytes.length >= 4 ? bytes.readUInt32LE(bytes.length - 4) : 0;
  return Math.min(MAX_INFLATE_CHUNK, Math.max(MIN_INFLATE_CHUNK, declared));
}

/** Inflates chunk by chunk, taking each from the allowance, so a refusal stops the work early. */
function inflate(bytes: Buffer, maxOutputLength: number, lease: BudgetLease): Promise<{ ok: true; value: Buffer } | Refusal> {
  return new Promise((resolve) => {
    const gunzip = createGunzip({ chunkSize: inflateChunkSize(bytes) });
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const settle = (result: { ok: true; value: Buffer } | Refusal): void => {
      if (settled) return;
      settled = true;
      if (!result.ok) {
        chunks.length = 0;
        gunzip.destroy();
      }
      resolve(result);
    };
    gunzip.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > maxOutputLength) return settle(refuse(413, `the gzip body inflates to more than ${maxOutputLength} bytes`));
      if (!lease.take(chunk.length)) return settle(refuse(503, BUSY_REASON));
      chunks.push(chunk);
    });
    gunzip.on('end', () => settle({ ok: true, value: Buffer.concat(chunks, length) }));
    gunzip.on('error', (error) => {
      settle(refuse(400, `the body was declared or detected as gzip but could not be inflated: ${error.message}`));
    });
    gunzip.end(bytes);
  });
}

function isFormBody(text: string, contentType: string | undefined): boolean {
  if (contentType !== undefined && contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) return true;
  return text.startsWith('data=');
}

function unwrapFormData(data: string, invalidUtf8: boolean): { text: string; invalidUtf8: boolean } {
  const trimmed = data.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return { text: trimmed, invalidUtf8 };
  return fromBase64(trimmed);
}

/** URLSearchParams turns an unescaped `+` into a space; put it back before decoding base64. */
function fromBase64(text: string): { text: string; invalidUtf8: boolean } {
  const bytes = Buffer.from(text.trim().replace(/ /g, '+'), 'base64');
  return { text: bytes.toString('utf8'), invalidUtf8: !isUtf8(bytes) };
}
