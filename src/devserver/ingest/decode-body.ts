/**
 * From wire bytes to parsed JSON: gzip, the legacy form and base64 encodings, with bounded inflation.
 */
import { gunzip } from 'node:zlib';
import { refuse, type Refusal } from './types';

export interface DecodeContext {
  query: URLSearchParams;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  /** Cap on the inflated size, so a small gzip bomb cannot exhaust memory. */
  maxInflatedBytes: number;
}

export type Decoded = { ok: true; value: unknown } | Refusal;

const GZIP_MAGIC_0 = 0x1f;
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
    const inflated = await inflate(bytes, context.maxInflatedBytes);
    if (!inflated.ok) return inflated;
    payload = inflated.value;
  }

  let text = payload.toString('utf8');
  if (text.trim() === '') return refuse(400, 'the request body is empty');

  if (isFormBody(text, context.contentType)) {
    const data = new URLSearchParams(text).get('data');
    if (data === null) return refuse(400, 'form body has no data= field');
    text = unwrapFormData(data);
  } else if (compression === 'base64') {
    text = fromBase64(text);
  }

  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return refuse(400, `malformed JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function isGzip(bytes: Buffer, compression: string | undefined, contentEncoding: string | undefined): boolean {
  if (compression === 'gzip' || compression === 'gzip-js') return true;
  if (contentEncoding !== undefined && /\bgzip\b/i.test(contentEncoding)) return true;
  return bytes[0] === GZIP_MAGIC_0 && bytes[1] === GZIP_MAGIC_1;
}

function inflate(bytes: Buffer, maxOutputLength: number): Promise<{ ok: true; value: Buffer } | Refusal> {
  return new Promise((resolve) => {
    gunzip(bytes, { maxOutputLength }, (error, result) => {
      if (error === null) return resolve({ ok: true, value: result });
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        return resolve(refuse(413, `the gzip body inflates to more than ${maxOutputLength} bytes`));
      }
      resolve(refuse(400, `the body was declared or detected as gzip but could not be inflated: ${error.message}`));
    });
  });
}

function isFormBody(text: string, contentType: string | undefined): boolean {
  if (contentType !== undefined && contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) return true;
  return text.startsWith('data=');
}

function unwrapFormData(data: string): string {
  const trimmed = data.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return trimmed;
  return fromBase64(trimmed);
}

/** URLSearchParams turns an unescaped `+` into a space; put it back before decoding base64. */
function fromBase64(text: string): string {
  return Buffer.from(text.trim().replace(/ /g, '+'), 'base64').toString('utf8');
}
