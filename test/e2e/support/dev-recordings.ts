/**
 * A `hogtail dev` server's session recordings, read from the test process: what its recordings API
 * answers for one session (one tab of it), and a wait until that answer holds something. The wait
 * runs here, not in a page: Playwright's waitForFunction does not await an async predicate (a
 * pending promise counts as a truthy answer), so a page-side wait on a fetch ended at once.
 */
import type { DevServer } from '../../../src/devserver';

/** The JSON `/_dev/recordings/<session id>` answers, as text: the first recorded tab, or `windowId`'s. */
export async function recordingText(dev: DevServer, sessionId: string, windowId?: string): Promise<string> {
  const query = windowId === undefined ? '' : `?window=${encodeURIComponent(windowId)}`;
  return (await fetch(`${dev.url}/_dev/recordings/${sessionId}${query}`)).text();
}

/** Asks every 250 ms until `holds` says yes; after 20 s, fails naming `what` it waited for. */
export async function untilRecorded(holds: () => Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; !(await holds()); await new Promise((resolve) => setTimeout(resolve, 250))) {
    if (Date.now() > deadline) throw new Error(`the dev server never held ${what}`);
  }
}
