/**
 * Reading a request body under a byte cap and the server's in-flight allowance.
 */
import type { IncomingMessage } from 'node:http';
import type { BudgetLease } from './budget';

/** How far past the cap an upload is read and discarded before it is answered regardless. */
const MAX_DRAINED_BYTES = 64 * 1024 * 1024;

export type BodyRead = { kind: 'complete'; bytes: Buffer } | { kind: 'too-large'; limit: number } | { kind: 'busy' } | { kind: 'aborted' };

/**
 * Counts bytes as they arrive so an oversize upload is refused as soon as it crosses the cap instead
 * of being buffered whole.
 *
 * Past the cap (or the allowance) the rest of the upload is drained and discarded, and the refusal
 * settles only once the upload is complete: answering (and so closing) while the client still writes
 * makes it see EPIPE or a reset instead of the answer, which would turn a deterministic "split your
 * batch" into a flaky network error. An upload that goes on far past the cap is answered anyway.
 */
export function readBody(req: IncomingMessage, limit: number, lease: BudgetLease): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  const drainLimit = limit + MAX_DRAINED_BYTES;
  if (Number.isFinite(declared) && declared > drainLimit) {
    req.resume();
    return Promise.resolve({ kind: 'too-large', limit });
  }

  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    let refusal: BodyRead | undefined;
    const settle = (result: BodyRead): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (refusal !== undefined) {
        if (received > drainLimit) settle(refusal);
        return;
      }
      if (received > limit) refusal = { kind: 'too-large', limit };
      else if (!lease.take(chunk.length)) refusal = { kind: 'busy' };
      else chunks.push(chunk);
      if (refusal !== undefined) {
        chunks.length = 0;
        lease.releaseAll();
      }
    };
    req.on('data', onData);
    req.once('end', () => settle(refusal ?? { kind: 'complete', bytes: Buffer.concat(chunks, received) }));
    req.once('error', () => settle({ kind: 'aborted' }));
    req.once('close', () => settle({ kind: 'aborted' }));
  });
}
