/**
 * A vitest setup file. happy-dom prints what a browser's console would show about a failed request
 * ("POST http://127.0.0.1:41813/flags/ 502 (Bad Gateway)", a refused connection) through the console
 * it was given when the environment started: Node's own, which vitest's `silent: 'passed-only'`
 * never sees, so those lines flooded every run. Here Node's console forwards to vitest's, so such
 * output belongs to the test that caused it: hidden when the test passes, shown when it fails.
 */
import nodeConsole from 'node:console';
import { afterAll } from 'vitest';

const METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
const ROUTED = Symbol.for('hogtail.test.console-routed');
const target = nodeConsole as unknown as Record<string | symbol, unknown>;

if (target[ROUTED] === undefined) {
  target[ROUTED] = true;
  for (const method of METHODS) {
    const own = nodeConsole[method].bind(nodeConsole);
    nodeConsole[method] = (...args: unknown[]): void => {
      // Only when vitest has put its console in place; otherwise print as Node would.
      if (globalThis.console === nodeConsole) own(...args);
      else globalThis.console[method](...args);
    };
  }
}

// A page file's clients can leave requests and timers running after its last test. happy-dom aborts
// them when vitest tears the environment down, and logs each aborted request then: a log racing the
// teardown failed a whole run once ("Closing rpc while onUserConsoleLog was pending"). Aborting here,
// in the file's last hook, logs them while vitest still takes output.
afterAll(async () => {
  await (globalThis as { happyDOM?: { abort(): Promise<void> } }).happyDOM?.abort();
});
