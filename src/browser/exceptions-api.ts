/**
 * captureException as posthog-js has it: a `$exception` event with `$exception_list` (type,
 * message, and the stack as the browser wrote it). Automatic capture of uncaught errors
 * (capture_exceptions) belongs to the full build.
 */
import { track } from './capture';
import type { Methods } from './runtime';

function describeError(error: unknown): { type: string; value: string; stack?: string } {
  if (error instanceof Error) return { type: error.name || 'Error', value: error.message, stack: error.stack };
  return { type: 'Error', value: typeof error === 'string' ? error : String(JSON.stringify(error) ?? error) };
}

export const exceptionMethods: Pick<Methods, 'captureException' | 'startExceptionAutocapture' | 'stopExceptionAutocapture' | 'addExceptionStep'> = {
  captureException(rt, error, properties) {
    const { type, value, stack } = describeError(error);
    return track(rt, '$exception', {
      $exception_list: [{ type, value, mechanism: { handled: true, synthetic: !(error instanceof Error) }, ...(stack && { $stack: stack }) }],
      $exception_level: 'error',
      ...properties,
    });
  },
  startExceptionAutocapture: (rt) => rt.warn('exceptions', 'startExceptionAutocapture(): exception autocapture is not in this build; nothing happens'),
  stopExceptionAutocapture: () => undefined,
  addExceptionStep: (rt) => rt.warn('exception steps', 'addExceptionStep(): exception steps are not part of hogtail; nothing happens'),
};
