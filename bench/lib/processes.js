// What every Node bench does with processes: start the loopback collector in its own process (its
// CPU and memory never count against the SDK), run each measured SDK in a fresh child, and talk to
// both over IPC.
import { fork } from 'node:child_process';

const here = new URL('..', import.meta.url).pathname;

/** The first IPC message from `child` that satisfies `predicate`; rejects if the child exits first. */
export function once(child, predicate) {
  return new Promise((resolve, reject) => {
    const onExit = (code) => reject(new Error(`process exited (${code}) before answering`));
    const onMessage = (message) => {
      if (predicate(message)) {
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message);
      }
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** bench/collector-process.js: `{ url, reset(), stats(), close() }`. */
export async function startCollector(args = []) {
  const child = fork(`${here}collector-process.js`, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { url } = await once(child, (m) => m.url !== undefined);
  const ask = (message, key) => {
    const answer = once(child, (m) => m[key] !== undefined);
    child.send(message);
    return answer;
  };
  return {
    url,
    reset: () => ask('reset', 'reset'),
    /** After a short pause, so the collector has parsed the last request it acknowledged. */
    stats: async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return ask('stats', 'received');
    },
    close: () => child.send('close'),
  };
}

/** Runs `script args…` in a fresh process until it sends a message with `key`; returns that message. */
export async function runMeasured(script, args, key, execArgv = []) {
  const child = fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  const result = await once(child, (m) => m[key] !== undefined);
  child.kill();
  return result;
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const fmt = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
