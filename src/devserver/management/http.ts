/** Reading requests and writing replies, in the error body shape PostHog uses: `{type, code, detail, attr}`. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeResponse } from '../http/respond';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface Reply {
  status: number;
  /** Serialised as JSON unless `bytes` is given. */
  json?: unknown;
  bytes?: Uint8Array;
  contentType?: string;
  headers?: Record<string, string>;
}

export type ErrorType = 'authentication_error' | 'invalid_request' | 'validation_error' | 'throttled_error' | 'server_error';

export function errorReply(status: number, type: ErrorType, code: string, detail: string, attr: string | null = null): Reply {
  return { status, json: { type, code, detail, attr } };
}

export class BodyError extends Error {
  override name = 'BodyError' as const;
  constructor(readonly reply: Reply) {
    super(String((reply.json as { detail?: unknown } | undefined)?.detail ?? 'bad body'));
  }
}

/** The JSON body, or undefined when there is none. Throws BodyError with the reply to send. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) {
      throw new BodyError(errorReply(413, 'invalid_request', 'request_too_large', 'Request body is larger than 1 MiB.'));
    }
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BodyError(errorReply(400, 'invalid_request', 'parse_error', 'JSON parse error: the body is not valid JSON.'));
  }
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...reply.headers };
  if (reply.status === 204) return writeResponse(res, 204, headers);
  headers['Content-Type'] = reply.contentType ?? (reply.bytes === undefined ? 'application/json' : 'application/octet-stream');
  writeResponse(res, reply.status, headers, reply.bytes ?? JSON.stringify(reply.json ?? null));
}
