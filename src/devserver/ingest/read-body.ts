/**
 * Reading a request body under a byte cap.
 */
import type { IncomingMessage } from 'node:http';

export type BodyRead =
  | { kind: 'complete'; bytes: Buffer }
  | { kind: 'too-large'; limit: number }
  | { kind: 'aborted' };

/**
 * Reads the wire body, counting bytes as they arrive so an oversize upload is refused as soon as it
 * crosses the cap instead of being buffered whole.
 *
 * Past the cap the rest of the upload is drained and discarded rather than the socket closed: a client
 * still writing its body into a closed socket sees a reset instead of the 413, which would turn a
 * deterministic "split your batch" signal into a flaky network error.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  // Untouched, Node discards the body itself once the response is sent.
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too-large', limit });

  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (result: BodyRead): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limit) {
        chunks.length = 0;
        settle({ kind: 'too-large', limit });
        req.resume();
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => settle({ kind: 'complete', bytes: Buffer.concat(chunks, received) }));
    req.once('error', () => settle({ kind: 'aborted' }));
    req.once('close', () => settle({ kind: 'aborted' }));
  });
}
