/**
 * The server clients' `$exception` event (Node and edge), posthog-node's shape: the exception
 * properties, then the caller's, sent as the given user or, without one, as a fresh personless id
 * (so a server error creates no person).
 */
import { attempt } from '../safe-json';
import { uuidv7 } from '../uuid';
import { exceptionProperties, type ExceptionOptions } from './exception-list';
import type { StackFrame } from './stack-frames';

export interface ExceptionEvent {
  distinctId: string;
  event: '$exception';
  properties: Record<string, unknown>;
}

/**
 * @param callStack a stack taken in the SDK method the app called (its first frame is that
 *   method), standing in for a thrown value that has none.
 * @param adjust the platform's own frame details (Node: module names, source lines).
 */
export function exceptionEvent(
  error: unknown,
  distinctId: unknown,
  properties: Record<string, unknown> | undefined,
  mechanism: ExceptionOptions['mechanism'],
  callStack?: string,
  adjust?: (frames: StackFrame[]) => void,
): ExceptionEvent {
  const exception = exceptionProperties(error, { platform: 'node:javascript', mechanism, syntheticStack: callStack, syntheticSkip: 1 });
  for (const entry of exception.$exception_list) {
    const frames = entry.stacktrace?.frames;
    // Frame details are extras: if the platform's step fails on an odd frame, the event still goes.
    if (adjust && frames) attempt(() => adjust(frames), 0);
  }
  const built: Record<string, unknown> = { ...exception, ...properties };
  let id = typeof distinctId === 'string' && distinctId.trim() !== '' ? distinctId : undefined;
  if (!id) {
    id = uuidv7();
    built.$process_person_profile = false;
  }
  return { distinctId: id, event: '$exception', properties: built };
}
