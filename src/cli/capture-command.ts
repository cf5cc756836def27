/**
 * `hogtail capture EVENT --distinct-id ID [--prop k=v ...]`: one event from a shell script or a cron
 * job. It waits for the server's answer and exits non-zero with the reason when the event was not
 * delivered, because a script cannot watch an error hook.
 *
 * `--prop k=v` sets a string; `--prop k:=JSON` sets a typed value (number, boolean, object…), the
 * convention HTTPie uses, so `plan=007` stays a string and `count:=7` is a number.
 *
 * Exit codes: 0 delivered, 1 not delivered, 2 the command line is wrong.
 */
import type { HogtailError } from '../core/errors';
import { PostHog } from '../node/client';
import { DEFAULT_HOST } from '../core/defaults';
import { resolveConnection } from './common/connection';
import { helpText, parseFlags, positiveInteger, UsageError, type FlagSpec } from './common/flags';
import type { CommandIo } from './common/command-io';
import { holdProcessOpen } from './common/keep-alive';
import { outcomeOf } from './common/client-outcome';

const FLAGS: Record<string, FlagSpec> = {
  'distinct-id': { kind: 'string', value: 'ID', help: 'who did it (required)' },
  prop: { kind: 'list', value: 'KEY=VALUE|KEY:=JSON', help: 'a property; repeat for more' },
  timestamp: { kind: 'string', value: 'ISO8601', help: 'when it happened (default now)' },
  uuid: { kind: 'string', value: 'UUID', help: 'event uuid, to make a retried script idempotent' },
  'api-key': { kind: 'string', value: 'KEY', help: 'project API key, phc_… (or HOGTAIL_API_KEY)' },
  host: { kind: 'string', value: 'URL', help: `ingestion host (or HOGTAIL_HOST; default ${DEFAULT_HOST})` },
  retries: { kind: 'string', value: 'N', help: 'attempts before giving up (default 4)' },
  timeout: { kind: 'string', value: 'MS', help: 'per-request timeout in ms (default 10000)' },
  help: { kind: 'boolean', help: 'show this help (also -h)' },
};

const NOTES = `Exit codes:
  0  delivered
  1  not delivered (the reason is printed)
  2  wrong command line`;

const USAGE = 'Usage: hogtail capture EVENT --distinct-id ID [--prop key=value ...] [options]';

export function parseProperties(specs: readonly string[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  // Defined, not assigned: `properties['__proto__'] = v` would set the prototype and drop the property.
  const set = (key: string, value: unknown): void => {
    Object.defineProperty(properties, key, { value, enumerable: true, writable: true, configurable: true });
  };
  for (const spec of specs) {
    const typed = spec.indexOf(':=');
    const plain = spec.indexOf('=');
    if (typed !== -1 && typed < plain) {
      const key = spec.slice(0, typed);
      const text = spec.slice(typed + 2);
      if (key === '') throw new UsageError(`--prop needs a name before :=; got ${JSON.stringify(spec)}`);
      try {
        set(key, JSON.parse(text));
      } catch {
        throw new UsageError(`--prop ${key}:= needs JSON (e.g. 3, true, {"a":1}); got ${JSON.stringify(text)}. Use ${key}=… for a string.`);
      }
    } else if (plain > 0) {
      set(spec.slice(0, plain), spec.slice(plain + 1));
    } else {
      throw new UsageError(`--prop takes key=value or key:=json; got ${JSON.stringify(spec)}`);
    }
  }
  return properties;
}

export async function runCaptureCommand(args: string[], io: CommandIo): Promise<number> {
  const err = (text: string) => void io.stderr.write(text);
  let client: PostHog | undefined;
  const letGo = holdProcessOpen();
  try {
    const flags = parseFlags(args, FLAGS);
    if (flags.booleans.has('help')) {
      io.stdout.write(helpText(USAGE, FLAGS, NOTES));
      return 0;
    }
    const [event, ...extra] = flags.positionals;
    if (event === undefined || event.trim() === '') throw new UsageError('name the event: hogtail capture EVENT --distinct-id ID');
    if (extra.length > 0)
      throw new UsageError(`one event at a time; unexpected ${JSON.stringify(extra[0])} (quote an event name with spaces)`);
    const distinctId = flags.strings.get('distinct-id');
    if (distinctId === undefined || distinctId.trim() === '') throw new UsageError('--distinct-id is required and must not be blank');
    const properties = parseProperties(flags.lists.get('prop') ?? []);
    const connection = resolveConnection(flags, io.env);
    const retries = positiveInteger(flags, 'retries', 4);

    client = new PostHog(connection.apiKey, {
      host: connection.host,
      flushAt: 1,
      // flush() settles after this many failed attempts; the event is then reported as not delivered.
      retry: { maxAttempts: retries },
      requestTimeout: positiveInteger(flags, 'timeout', 10_000),
      flushOnExitTimeout: 0,
    });
    let problem: string | undefined;
    // The last problem heard is the reason given if the event is not delivered in the end; a retry
    // that later succeeds is never printed.
    let gaveUpAfter = '';
    client.on('error', (error: HogtailError) => {
      const outcome = outcomeOf(error);
      problem = outcome.kind === 'retrying' ? outcome.problem : error.message;
      gaveUpAfter = outcome.kind === 'retrying' ? ` (gave up after ${retries} attempt(s))` : '';
    });
    client.capture({ event, distinctId, properties, timestamp: flags.strings.get('timestamp'), uuid: flags.strings.get('uuid') });
    // A refusal at capture is reported synchronously: the input is wrong, not the network.
    const invalid = problem;
    if (invalid !== undefined) {
      err(`hogtail capture: ${invalid}\n`);
      return 2;
    }
    await client.flush();
    if (client.stats().delivered === 1) {
      // Only a 2xx with a PostHog answer counts as delivered (core/transport.ts), so "accepted" is what the server said.
      io.stdout.write(
        `hogtail capture: sent 1 event (${JSON.stringify(event)} for ${JSON.stringify(distinctId)}) to ${connection.host}: accepted\n`,
      );
      return 0;
    }
    err(`hogtail capture: the event was not delivered: ${problem ?? 'no answer from the server'}${gaveUpAfter}\n`);
    return 1;
  } catch (error) {
    if (error instanceof UsageError) {
      err(`hogtail capture: ${error.message}\nRun 'hogtail capture --help' for the options.\n`);
      return 2;
    }
    err(`hogtail capture: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await client?.shutdown(0);
    letGo();
  }
}
