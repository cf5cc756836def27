/**
 * `hogtail api <resource> <action> [--flag value]`: the management client from a shell. Prints JSON
 * on stdout, messages on stderr. Exit codes: 0 done, 1 the call failed (HTTP, network, timeout),
 * 2 the command line or environment is wrong. What can be called is the table in api/actions.ts.
 *
 * The key comes only from HOGTAIL_PERSONAL_API_KEY: a flag would land in shell history and in every
 * process listing on the machine.
 */
import { createApiClient, type ApiClient } from '../api/client';
import type { QueryParams } from '../api/types';
import { RESOURCES, type Action, type ApiCommandIo, type ApiFlagSpec, type Flags } from './api/actions';
import { parseFlags as parseCommandLine, UsageError, type FlagTable } from './common/flags';

export type { ApiCommandIo } from './api/actions';

const GLOBAL_FLAGS: Record<string, ApiFlagSpec> = {
  host: { kind: 'string', help: 'PostHog host, e.g. https://us.posthog.com (or HOGTAIL_HOST)' },
  project: { kind: 'string', help: 'project id (or HOGTAIL_PROJECT_ID)' },
  timeout: { kind: 'integer', help: 'per-attempt timeout in ms (default 30000)' },
  retry: { kind: 'boolean', help: 'also retry a write (POST/PATCH/DELETE) on 429/5xx' },
  help: { kind: 'boolean', help: 'show this help' },
};

const KEY_FLAG = /^--(personal[-_]api[-_]key|api[-_]key|personal[-_]key)(=|$)/;

export async function runApiCommand(args: string[], io: ApiCommandIo): Promise<number> {
  const [resourceName, actionName, ...rest] = args;
  if (resourceName === undefined || resourceName === '--help' || resourceName === '-h' || resourceName === 'help') {
    io.stdout(usage());
    return resourceName === undefined ? 2 : 0;
  }
  const resource = RESOURCES[resourceName];
  if (resource === undefined) return usageFailure(io, `unknown resource "${resourceName}"`);
  if (actionName === undefined || actionName === '--help' || actionName === '-h') {
    io.stdout(usage(resourceName));
    return actionName === undefined ? 2 : 0;
  }
  const action = resource[actionName];
  if (action === undefined) return usageFailure(io, `unknown action "${actionName}" for ${resourceName}`, resourceName);

  let flags: Flags;
  let extra: QueryParams;
  try {
    ({ flags, extra } = parseFlags(rest, action));
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, error.message, resourceName);
    throw error;
  }
  if (flags['help'] === true) {
    io.stdout(usage(resourceName));
    return 0;
  }

  const personalApiKey = io.env['HOGTAIL_PERSONAL_API_KEY'];
  const host = (flags['host'] as string | undefined) ?? io.env['HOGTAIL_HOST'];
  const projectId = (flags['project'] as string | undefined) ?? io.env['HOGTAIL_PROJECT_ID'];
  const missing = [
    personalApiKey === undefined || personalApiKey === '' ? 'HOGTAIL_PERSONAL_API_KEY (a personal API key, phx_…)' : undefined,
    host === undefined || host === '' ? '--host or HOGTAIL_HOST' : undefined,
    projectId === undefined || projectId === '' ? '--project or HOGTAIL_PROJECT_ID' : undefined,
  ].filter((item): item is string => item !== undefined);
  if (missing.length > 0) return usageFailure(io, `missing ${missing.join(', ')}`, resourceName);

  let client: ApiClient;
  try {
    client = createApiClient({
      host: host as string,
      personalApiKey: personalApiKey as string,
      projectId: projectId as string,
      ...(flags['timeout'] === undefined ? {} : { timeoutMs: flags['timeout'] as number }),
    });
  } catch (error) {
    return usageFailure(io, error instanceof Error ? error.message : String(error), resourceName);
  }

  try {
    const result = await action.run(client, flags, extra, io);
    if (result !== undefined) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, error.message, resourceName);
    if (error instanceof TypeError) return usageFailure(io, error.message, resourceName);
    io.stderr(`hogtail api: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

function parseFlags(args: string[], action: Action): { flags: Flags; extra: QueryParams } {
  if (args.some((arg) => KEY_FLAG.test(arg))) {
    throw new UsageError('pass the key in HOGTAIL_PERSONAL_API_KEY, not as a flag (flags end up in shell history and process listings)');
  }
  const specs: Record<string, ApiFlagSpec> = { ...GLOBAL_FLAGS, ...action.flags };
  const table: FlagTable = {};
  for (const [name, spec] of Object.entries(specs)) table[name] = { kind: spec.kind === 'boolean' ? 'boolean' : 'string', help: spec.help };
  const parsed = parseCommandLine(args, table, { passThrough: action.passThrough === true });
  const flags: Flags = {};
  for (const name of parsed.booleans) flags[name] = true;
  for (const [name, value] of parsed.strings) flags[name] = convert(name, value, specs[name]!);
  const [positional, ...more] = parsed.positionals;
  if (positional !== undefined) {
    if (action.positional === undefined) throw new UsageError(`unexpected argument '${positional}'`);
    if (flags[action.positional] !== undefined) throw new UsageError(`--${action.positional} was given twice`);
    flags[action.positional] = convert(action.positional, positional, specs[action.positional]!);
  }
  if (more.length > 0) throw new UsageError(`unexpected argument '${more[0]}'`);
  for (const [name, spec] of Object.entries(action.flags)) {
    if (spec.required === true && flags[name] === undefined) throw new UsageError(`--${name} is required`);
  }
  const extra: QueryParams = {};
  for (const [name, value] of parsed.extra) extra[name.replace(/-/g, '_')] = value;
  return { flags, extra };
}

function convert(name: string, value: string, spec: ApiFlagSpec): string | number | Record<string, unknown> {
  if (spec.kind === 'integer') {
    if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} must be an integer, got "${value}"`);
    return Number(value);
  }
  if (spec.kind === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new UsageError(`--${name} must be JSON, e.g. '{"level": 8}'`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new UsageError(`--${name} must be a JSON object`);
    }
    return parsed as Record<string, unknown>;
  }
  return value;
}

function usageFailure(io: ApiCommandIo, message: string, resource?: string): number {
  io.stderr(`hogtail api: ${message}\n\n${usage(resource)}`);
  return 2;
}

function usage(resource?: string): string {
  const lines = [
    'Usage: hogtail api <resource> <action> [--flag value]',
    '',
    'Calls the PostHog management API and prints JSON.',
    'Environment: HOGTAIL_PERSONAL_API_KEY (required), HOGTAIL_HOST, HOGTAIL_PROJECT_ID',
    '',
  ];
  const names = resource !== undefined && RESOURCES[resource] !== undefined ? [resource] : Object.keys(RESOURCES);
  for (const name of names) {
    for (const [actionName, action] of Object.entries(RESOURCES[name] ?? {})) {
      const flagText = Object.entries(action.flags)
        .map(([flag, spec]) => {
          const shown =
            spec.kind === 'boolean'
              ? `--${flag}`
              : `--${flag} <${spec.kind === 'json' ? 'json' : spec.kind === 'integer' ? 'n' : 'value'}>`;
          return spec.required === true ? shown : `[${shown}]`;
        })
        .join(' ');
      lines.push(`  ${name} ${actionName} ${flagText}`.trimEnd());
      lines.push(`      ${action.summary}`);
    }
  }
  lines.push('', 'Global flags:');
  for (const [flag, spec] of Object.entries(GLOBAL_FLAGS)) lines.push(`  --${flag.padEnd(10)} ${spec.help}`);
  lines.push('', 'Exit codes: 0 done, 1 the call failed, 2 bad command line or environment.', '');
  return lines.join('\n');
}
