/**
 * The capture and decide paths of `hogtail dev`: the collector's rules, then storage before the
 * answer (an acknowledged event is on disk), with each refusal recorded for the page and the log.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ByteBudget } from '../ingest/budget';
import { describeError, evaluateRequest, writeOutcome, type IngestOptions } from '../ingest/ingest';
import type { ReceivedEvent } from '../ingest/types';
import { sendText } from '../http/respond';
import type { PeopleIndex } from './people';
import type { DevStore } from './store';

export interface IngestRouteContext {
  store: DevStore;
  people: PeopleIndex;
  options: IngestOptions;
  budget: ByteBudget;
  dataDir: string;
  log(line: string): void;
}

export interface RejectionInput {
  requestId: number;
  method: string;
  path: string;
  status: number;
  reason: string;
  sample?: string;
  sender?: string;
}

export function recordRejection(context: IngestRouteContext, rejection: RejectionInput): void {
  context.store.addRejection(rejection);
  context.log(`rejected ${rejection.method} ${rejection.path} with ${rejection.status}: ${rejection.reason}`);
}

export async function handleIngest(
  req: IncomingMessage,
  res: ServerResponse,
  requestId: number,
  context: IngestRouteContext,
): Promise<void> {
  const method = req.method ?? '';
  const outcome = await evaluateRequest(req, requestId, context.options, context.budget);
  if (outcome.kind === 'aborted') return;
  if (outcome.kind === 'accepted') {
    const warnings = outcome.invalidUtf8 ? utf8Warnings(outcome.events) : undefined;
    try {
      context.store.addEvents(outcome.events, warnings);
    } catch (error) {
      // Not stored means not acknowledged: a 503 makes the SDK keep the events and retry.
      const reason = `could not store the events under ${context.dataDir}: ${describeError(error)}`;
      context.log(`storage: ${reason}`);
      sendText(req, res, 503, reason);
      return;
    }
    for (const event of outcome.events) context.people.observe(event);
    if (warnings !== undefined && warnings.size > 0) {
      context.log(`accepted ${warnings.size} event(s) on ${outcome.path} whose name or distinct id was not valid UTF-8 (shown as U+FFFD)`);
    }
  } else if (outcome.kind === 'rejected') {
    const { path, status, reason, sample } = outcome;
    const sender = senderOf(req);
    recordRejection(context, {
      requestId,
      method,
      path,
      status,
      reason,
      ...(sample === undefined ? {} : { sample }),
      ...(sender === undefined ? {} : { sender }),
    });
  }
  writeOutcome(req, res, outcome);
}

/** The page names the sender of a refusal (which app, which SDK) by its Origin and User-Agent. */
function senderOf(req: IncomingMessage): string | undefined {
  const parts = [req.headers.origin, req.headers['user-agent']].filter((part): part is string => typeof part === 'string' && part !== '');
  return parts.length === 0 ? undefined : parts.join(' · ').slice(0, 300);
}

/**
 * The body had bytes that are not UTF-8, decoded as U+FFFD. An event whose name or distinct id now
 * holds one is flagged: the real service would have seen different bytes, and two users whose ids
 * differ only there now look like one.
 */
function utf8Warnings(events: readonly ReceivedEvent[]): Map<ReceivedEvent, string[]> {
  const flagged = new Map<ReceivedEvent, string[]>();
  for (const event of events) {
    const fields = [event.event.includes('\uFFFD') ? 'event name' : '', event.distinct_id.includes('\uFFFD') ? 'distinct id' : ''].filter(
      Boolean,
    );
    if (fields.length > 0) flagged.set(event, [`${fields.join(' and ')} had bytes that are not UTF-8, shown as \uFFFD`]);
  }
  return flagged;
}
