/**
 * The Node client's own executor (node:http), plus a record of each batch request as the client saw
 * it: the uuids it carried and whether a 2xx came back in time. Only the client knows which answers
 * it got before its deadline, and that is what tells the duplicates apart:
 * - a server that kept the events and answered a failure, or whose answer came after the client's
 *   deadline (a loaded machine), makes a resend with the same uuids: at-least-once, allowed;
 * - a resend after the client heard a 2xx is a bug, whatever the machine's speed.
 */
import { gunzipSync } from 'node:zlib';
import type { HttpExecutor } from '../../src/core/transport';
import { createNodeExecutor } from '../../src/node/http-executor';

export interface BatchSend {
  uuids: string[];
  /** A 2xx came back before the deadline: the client counts these events as delivered. */
  delivered: boolean;
  /** Why not, when not: the status answered, or the network error (a timeout, a reset). */
  failure?: string;
}

export interface RecordingExecutor {
  execute: HttpExecutor;
  /** Batch requests in the order they ended. */
  readonly sends: BatchSend[];
  /** Closes the keep-alive sockets (the client closes only an executor it made itself). */
  destroy(): void;
}

function uuidsOf(body: Uint8Array | string | undefined): string[] {
  if (body === undefined) return [];
  const text = typeof body === 'string' ? body : gunzipSync(body).toString('utf8');
  const batch = (JSON.parse(text) as { batch?: { uuid?: string }[] }).batch ?? [];
  return batch.map((event) => event.uuid ?? '');
}

export function createRecordingExecutor(): RecordingExecutor {
  const inner = createNodeExecutor();
  const sends: BatchSend[] = [];
  const execute: HttpExecutor = async (request) => {
    if (!request.url.includes('/batch/')) return inner.execute(request);
    const uuids = uuidsOf(request.body);
    try {
      const response = await inner.execute(request);
      const delivered = response.status >= 200 && response.status < 300;
      sends.push(delivered ? { uuids, delivered } : { uuids, delivered, failure: `status ${response.status}` });
      return response;
    } catch (error) {
      sends.push({ uuids, delivered: false, failure: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  };
  return { execute, sends, destroy: () => inner.destroy() };
}

/**
 * What the record says went wrong, as readable lines (empty when nothing did):
 * - an event the client heard delivered more than once, or sent again after it was;
 * - an event that reached the server more often than the client sent it without hearing a 2xx,
 *   plus once: a duplicate nothing explains.
 */
export function duplicateProblems(sends: readonly BatchSend[], arrivedUuids: readonly string[]): string[] {
  const problems: string[] = [];
  const undelivered = new Map<string, number>();
  const deliveredAt = new Map<string, number>();
  sends.forEach((send, index) => {
    for (const uuid of send.uuids) {
      const earlier = deliveredAt.get(uuid);
      if (earlier !== undefined) problems.push(`${uuid} sent again (request ${index}) after request ${earlier} delivered it`);
      if (send.delivered) deliveredAt.set(uuid, index);
      else undelivered.set(uuid, (undelivered.get(uuid) ?? 0) + 1);
    }
  });
  const arrivals = new Map<string, number>();
  for (const uuid of arrivedUuids) arrivals.set(uuid, (arrivals.get(uuid) ?? 0) + 1);
  for (const [uuid, count] of arrivals) {
    const explained = undelivered.get(uuid) ?? 0;
    if (count - 1 > explained) problems.push(`${uuid} arrived ${count} times; the client resent it only ${explained} time(s)`);
  }
  return problems;
}
