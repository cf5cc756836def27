/**
 * One process-wide `beforeExit` / `exit` listener pair for every client, so a script that forgets
 * shutdown() still delivers what it captured, whatever is left at exit is reported, and many clients
 * do not trip MaxListenersExceededWarning.
 */
export interface ExitAware {
  /** Called when the event loop empties; may start work that keeps the process alive a little. */
  flushBeforeExit(): void;
  /** Called synchronously at exit: report what could not be delivered. */
  reportAtExit(): void;
}

const clients = new Set<ExitAware>();
let installed = false;

function onBeforeExit(): void {
  for (const client of clients) client.flushBeforeExit();
}

function onExit(): void {
  for (const client of clients) client.reportAtExit();
}

export function registerForExit(client: ExitAware): void {
  clients.add(client);
  if (!installed) {
    installed = true;
    process.on('beforeExit', onBeforeExit);
    process.on('exit', onExit);
  }
}

export function unregisterForExit(client: ExitAware): void {
  clients.delete(client);
  if (clients.size === 0 && installed) {
    installed = false;
    process.off('beforeExit', onBeforeExit);
    process.off('exit', onExit);
  }
}
