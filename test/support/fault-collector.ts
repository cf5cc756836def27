/**
 * A collector that misbehaves on cue, for delivery tests: the rules still judge every request (so the
 * uuids it carried are known even when it fails), then `plan` may swap the answer for a fault.
 * Injected faults are kept out of `rejections`, which stays the record of rule violations.
 */
import { createCollector, type Collector, type CollectorOptions, type Exchange } from '../../src/devserver';
import { sendText } from '../../src/devserver/http/respond';

export type Fault =
  /** Answer this status; nothing is recorded. */
  | { kind: 'status'; status: number; retryAfter?: string }
  /** Tear the connection down without answering; the client sees a network error. */
  | { kind: 'reset' }
  /** Never answer; the socket is destroyed when the collector closes. */
  | { kind: 'hang' }
  /** Record the events as accepted, then answer this status: a server that kept the data but said it failed. */
  | { kind: 'acceptThen'; status: number }
  /**
   * Record the events as accepted and answer 200 only after `afterMs`: set past the client's
   * deadline, a delivery the client never hears of (what a loaded machine does by chance).
   */
  | { kind: 'acceptLate'; afterMs: number };

export interface FaultPlanInfo {
  path: string;
  /** Events the body carried, valid or not; 0 for decide or an undecodable body. */
  eventCount: number;
  /** uuids of the events the body carried, so a plan can fail exactly the requests carrying one. */
  uuids: string[];
}

/** `requestIndex` counts from 0 over every request but CORS preflights, which never reach the plan. */
export type FaultPlan = (requestIndex: number, info: FaultPlanInfo) => Fault | undefined;

export interface RequestLogEntry {
  index: number;
  requestId: number;
  path: string;
  fault?: Fault;
  /** uuids found in the body, whether or not the request succeeded. */
  uuids: string[];
  /** Whether the events were recorded in `events`. */
  accepted: boolean;
  /** The status answered; absent for reset and hang. */
  status?: number;
}

export interface FaultCollector extends Collector {
  readonly log: RequestLogEntry[];
}

export interface FaultCollectorOptions extends Omit<CollectorOptions, 'handleExchange'> {
  plan: FaultPlan;
}

export async function createFaultCollector(options: FaultCollectorOptions): Promise<FaultCollector> {
  const { plan, ...collectorOptions } = options;
  const log: RequestLogEntry[] = [];
  let nextIndex = 0;

  const handleExchange = (exchange: Exchange): void => {
    const { outcome } = exchange;
    if (outcome.kind === 'preflight') return exchange.respond();

    const items = itemsOf(outcome);
    const index = nextIndex++;
    const uuids = uuidsOf(items);
    const fault = plan(index, { path: outcome.path, eventCount: items.length, uuids });
    const entry: RequestLogEntry = {
      index,
      requestId: exchange.requestId,
      path: outcome.path,
      uuids,
      accepted: false,
    };
    log.push(entry);

    if (fault === undefined) {
      exchange.record();
      exchange.respond();
      entry.accepted = outcome.kind === 'accepted';
      entry.status = exchange.res.statusCode;
      return;
    }
    entry.fault = fault;
    applyFault(exchange, fault, entry);
  };

  const collector = await createCollector({ ...collectorOptions, handleExchange });
  return {
    ...collector,
    // Spreading copied the count's value; keep it live.
    get requests() {
      return collector.requests;
    },
    log,
    clear() {
      collector.clear();
      log.length = 0;
    },
  };
}

function applyFault(exchange: Exchange, fault: Fault, entry: RequestLogEntry): void {
  const { req, res, outcome } = exchange;
  switch (fault.kind) {
    case 'status': {
      const headers = fault.retryAfter === undefined ? {} : { 'Retry-After': fault.retryAfter };
      sendText(req, res, fault.status, `injected fault: ${fault.status}`, headers);
      entry.status = fault.status;
      return;
    }
    case 'reset':
      // RST rather than FIN, so the client cannot mistake it for an orderly end of a keep-alive socket.
      req.socket.resetAndDestroy();
      return;
    case 'hang':
      return;
    case 'acceptThen':
      if (outcome.kind === 'accepted') {
        exchange.record();
        entry.accepted = true;
      }
      sendText(req, res, fault.status, `injected fault after accepting: ${fault.status}`);
      entry.status = fault.status;
      return;
    case 'acceptLate':
      if (outcome.kind === 'accepted') {
        exchange.record();
        entry.accepted = true;
      }
      // Unref'd and guarded: the client may be long gone, and the collector closed.
      setTimeout(() => {
        if (!res.destroyed) exchange.respond();
      }, fault.afterMs).unref();
      entry.status = 200;
      return;
  }
}

function itemsOf(outcome: Exchange['outcome']): readonly unknown[] {
  if (outcome.kind === 'accepted') return outcome.events;
  if (outcome.kind === 'rejected') return outcome.items;
  return [];
}

function uuidsOf(items: readonly unknown[]): string[] {
  const uuids: string[] = [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const uuid = (item as { uuid?: unknown }).uuid;
    if (typeof uuid === 'string') uuids.push(uuid);
  }
  return uuids;
}
