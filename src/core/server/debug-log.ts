/**
 * What the server client's debug mode prints beyond drops and retries: every queued event, every
 * flush and every response (the executor wrapped by logResponses), as posthog-node's debug() shows
 * each capture, flush and answer. Built only while debug is on (`verbose()`), so the lines cost
 * nothing otherwise; events and bodies are cut to SHOWN characters of one line, so an HTML page or
 * a big answer stays one readable line.
 */
import type { QueuedEvent } from '../event';
import type { HttpExecutor } from '../transport';
import { textOf } from '../text-of';

const SHOWN = 300;

export function shortened(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SHOWN ? `${line.slice(0, SHOWN)}… (${line.length} characters)` : line;
}

export function queuedLine(record: QueuedEvent): string {
  return `queued ${shortened(record.json)}`;
}

export function logResponses(executor: HttpExecutor, verbose: () => boolean, debug: (message: string) => void): HttpExecutor {
  return async (request) => {
    if (!verbose()) return executor(request);
    const sent = `${request.method} ${request.url} (${request.body?.length ?? 0} bytes${request.headers['Content-Encoding'] === 'gzip' ? ', gzip' : ''})`;
    try {
      const response = await executor(request);
      debug(`${sent}: ${response.status} ${shortened(response.body) || '(no body)'}`);
      return response;
    } catch (error) {
      debug(`${sent}: no response (${textOf(error instanceof Error ? error.message : error)})`);
      throw error;
    }
  };
}
