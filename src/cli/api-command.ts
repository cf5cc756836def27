/**
 * `hogtail api <resource> <action> [--flag value]`: the management client from a shell. Prints JSON
 * on stdout, messages on stderr. Exit codes: 0 done, 1 the call failed (HTTP, network, timeout),
 * 2 the command line or environment is wrong.
 *
 * The key comes only from HOGTAIL_PERSONAL_API_KEY: a flag would land in shell history and in every
 * process listing on the machine.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createApiClient, type ApiClient } from '../api/client';
import type { QueryParams } from '../api/types';

export interface ApiCommandIo {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

type FlagKind = 'string' | 'integer' | 'json' | 'boolean';

interface FlagSpec {
  kind: FlagKind;
  required?: boolean;
  help: string;
}

type Flags = Record<string, string | number | boolean | Record<string, unknown> | undefined>;

interface Action {
  summary: string;
  flags: Record<string, FlagSpec>;
  /** The flag a bare positional argument fills, e.g. `exports get 12`. */
  positional?: string;
  /** Unknown flags become query parameters (`--prompt x` → `?prompt=x`), for endpoints the spec leaves open. */
  passThrough?: boolean;
  run(client: ApiClient, flags: Flags, extra: QueryParams, io: ApiCommandIo): Promise<unknown>;
}

class UsageError extends Error {
  override name = 'UsageError' as const;
}

const GLOBAL_FLAGS: Record<string, FlagSpec> = {
  host: { kind: 'string', help: 'PostHog host, e.g. https://us.posthog.com (or HOGTAIL_HOST)' },
  project: { kind: 'string', help: 'project id (or HOGTAIL_PROJECT_ID)' },
  timeout: { kind: 'integer', help: 'per-attempt timeout in ms (default 30000)' },
  retry: { kind: 'boolean', help: 'also retry a write (POST/PATCH/DELETE) on 429/5xx' },
  help: { kind: 'boolean', help: 'show this help' },
};

const PAGE_FLAGS: Record<string, FlagSpec> = {
  limit: { kind: 'integer', help: 'results per page' },
  offset: { kind: 'integer', help: 'index of the first result' },
  all: { kind: 'boolean', help: 'follow `next` and print every item as one array' },
};

const DELETED = { deleted: true };

const RESOURCES: Record<string, Record<string, Action>> = {
  'explicit-members': {
    get: {
      summary: "a user's explicit membership",
      flags: { 'user-uuid': { kind: 'string', required: true, help: "the user's uuid" } },
      positional: 'user-uuid',
      run: (client, flags) => client.explicitMembers.get(str(flags['user-uuid'])),
    },
    update: {
      summary: 'change level or user_uuid',
      flags: {
        'user-uuid': { kind: 'string', required: true, help: "the user's uuid" },
        level: { kind: 'integer', help: 'new level' },
        data: { kind: 'json', help: 'JSON body, e.g. {"level":8}' },
      },
      positional: 'user-uuid',
      run: (client, flags) =>
        client.explicitMembers.update(str(flags['user-uuid']), { ...obj(flags['data']), ...defined({ level: flags['level'] }) }, writeOptions(flags)),
    },
    delete: {
      summary: 'remove the membership',
      flags: { 'user-uuid': { kind: 'string', required: true, help: "the user's uuid" } },
      positional: 'user-uuid',
      run: async (client, flags) => {
        await client.explicitMembers.delete(str(flags['user-uuid']), writeOptions(flags));
        return DELETED;
      },
    },
  },
  exports: {
    list: {
      summary: 'exported assets',
      flags: PAGE_FLAGS,
      run: (client, flags) => list(client.exports.list, pageParams(flags), flags),
    },
    create: {
      summary: 'export a dashboard or insight',
      flags: {
        dashboard: { kind: 'integer', help: 'dashboard id' },
        insight: { kind: 'integer', help: 'insight id' },
        'export-format': { kind: 'string', help: 'media type, e.g. text/csv or image/png' },
        'expires-after': { kind: 'string', help: 'ISO 8601 date-time' },
        data: { kind: 'json', help: 'JSON body (merged under the flags above)' },
      },
      run: (client, flags) =>
        client.exports.create(
          {
            ...obj(flags['data']),
            ...defined({
              dashboard: flags['dashboard'],
              insight: flags['insight'],
              export_format: flags['export-format'],
              expires_after: flags['expires-after'],
            }),
          },
          writeOptions(flags),
        ),
    },
    get: {
      summary: 'one exported asset',
      flags: { id: { kind: 'integer', required: true, help: 'export id' } },
      positional: 'id',
      run: (client, flags) => client.exports.get(num(flags['id'])),
    },
    content: {
      summary: "download an export's file",
      flags: {
        id: { kind: 'integer', required: true, help: 'export id' },
        output: { kind: 'string', help: 'write the file here and print a summary; needed for binary content' },
      },
      positional: 'id',
      run: (client, flags, _extra, io) => downloadContent(client, num(flags['id']), flags['output'], io),
    },
  },
  groups: {
    list: {
      summary: 'groups of one type (cursor pages)',
      flags: {
        'group-type-index': { kind: 'integer', required: true, help: 'the group type to list' },
        cursor: { kind: 'string', help: 'page cursor from a previous `next`' },
        search: { kind: 'string', help: 'search on group name' },
        all: PAGE_FLAGS['all'] as FlagSpec,
      },
      run: (client, flags) =>
        list(
          client.groups.list,
          {
            group_type_index: num(flags['group-type-index']),
            ...defined({ cursor: flags['cursor'], search: flags['search'] }),
          },
          flags,
        ),
    },
    find: {
      summary: 'one group by key',
      flags: {
        'group-type-index': { kind: 'integer', required: true, help: 'the group type' },
        'group-key': { kind: 'string', required: true, help: 'the group key' },
      },
      run: (client, flags) =>
        client.groups.find({ group_type_index: num(flags['group-type-index']), group_key: str(flags['group-key']) }),
    },
  },
  query: {
    'draft-sql': {
      summary: 'draft SQL (other flags become query parameters, e.g. --prompt)',
      flags: {},
      passThrough: true,
      run: (client, _flags, extra) => client.query.draftSql(extra),
    },
  },
  'session-recordings': {
    list: {
      summary: 'session recordings',
      flags: PAGE_FLAGS,
      run: (client, flags) => list(client.sessionRecordings.list, pageParams(flags), flags),
    },
    get: {
      summary: 'one recording',
      flags: { id: { kind: 'string', required: true, help: 'recording id' } },
      positional: 'id',
      run: (client, flags) => client.sessionRecordings.get(str(flags['id'])),
    },
    update: {
      summary: "change a recording's person",
      flags: {
        id: { kind: 'string', required: true, help: 'recording id' },
        data: { kind: 'json', required: true, help: 'JSON body, e.g. {"person":{"name":"x"}}' },
      },
      positional: 'id',
      run: (client, flags) => client.sessionRecordings.update(str(flags['id']), obj(flags['data']), writeOptions(flags)),
    },
    delete: {
      summary: 'delete a recording',
      flags: { id: { kind: 'string', required: true, help: 'recording id' } },
      positional: 'id',
      run: async (client, flags) => {
        await client.sessionRecordings.delete(str(flags['id']), writeOptions(flags));
        return DELETED;
      },
    },
    sharing: {
      summary: "a recording's sharing configuration",
      flags: { id: { kind: 'string', required: true, help: 'recording id' } },
      positional: 'id',
      run: (client, flags) => client.sessionRecordings.sharing(str(flags['id'])),
    },
  },
  sessions: {
    'property-definitions': {
      summary: 'session property definitions (other flags become query parameters)',
      flags: {},
      passThrough: true,
      run: (client, _flags, extra) => client.sessions.propertyDefinitions(extra),
    },
    values: {
      summary: 'values of a session property, e.g. --key $entry_current_url',
      flags: {},
      passThrough: true,
      run: (client, _flags, extra) => client.sessions.values(extra),
    },
  },
  subscriptions: {
    list: {
      summary: 'subscriptions',
      flags: PAGE_FLAGS,
      run: (client, flags) => list(client.subscriptions.list, pageParams(flags), flags),
    },
  },
};

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
  const specs: Record<string, FlagSpec> = { ...GLOBAL_FLAGS, ...action.flags };
  const flags: Flags = {};
  const extra: QueryParams = {};
  let positionalUsed = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('--')) {
      if (action.positional !== undefined && !positionalUsed) {
        positionalUsed = true;
        flags[action.positional] = convert(action.positional, arg, specs[action.positional] as FlagSpec);
        continue;
      }
      throw new UsageError(`unexpected argument "${arg}"`);
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (/^(personal[-_]api[-_]key|api[-_]key|personal[-_]key)$/.test(name)) {
      throw new UsageError('pass the key in HOGTAIL_PERSONAL_API_KEY, not as a flag (flags end up in shell history and process listings)');
    }
    const spec = specs[name];
    if (spec?.kind === 'boolean') {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = args[i + 1];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      i++;
    }
    if (spec === undefined) {
      if (!action.passThrough) throw new UsageError(`unknown flag --${name}`);
      extra[name.replace(/-/g, '_')] = value;
      continue;
    }
    flags[name] = convert(name, value, spec);
  }
  for (const [name, spec] of Object.entries(action.flags)) {
    if (spec.required === true && flags[name] === undefined) throw new UsageError(`--${name} is required`);
  }
  return { flags, extra };
}

function convert(name: string, value: string, spec: FlagSpec): string | number | Record<string, unknown> {
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

interface Listable<P, T> {
  (params: P): Promise<unknown>;
  iterate(params: P): AsyncIterableIterator<T>;
}

async function list<P, T>(method: Listable<P, T>, params: P, flags: Flags): Promise<unknown> {
  if (flags['all'] !== true) return method(params);
  const items: T[] = [];
  for await (const item of method.iterate(params)) items.push(item);
  return items;
}

/** Binary content only goes to a file: written to `<file>.part` first, so a failed download never looks complete. */
async function downloadContent(client: ApiClient, id: number, output: Flags[string], io: ApiCommandIo): Promise<unknown> {
  if (typeof output === 'string' && output !== '') {
    const content = await client.exports.contentStream(id);
    const partial = `${output}.part`;
    try {
      await pipeline(Readable.fromWeb(content.stream as unknown as NodeReadableStream<Uint8Array>), createWriteStream(partial));
      await rename(partial, output);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { file: output, contentType: content.contentType, filename: content.filename ?? null };
  }
  const content = await client.exports.content(id);
  if (!isText(content.contentType)) {
    throw new UsageError(`export ${id} is binary (${content.contentType}); pass --output FILE to save it`);
  }
  io.stdout(new TextDecoder().decode(content.bytes));
  return undefined;
}

function isText(contentType: string): boolean {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return type.startsWith('text/') || type === 'application/json' || type.endsWith('+json') || type === 'application/csv';
}

function pageParams(flags: Flags): { limit?: number; offset?: number } {
  return defined({ limit: flags['limit'], offset: flags['offset'] }) as { limit?: number; offset?: number };
}

function writeOptions(flags: Flags): { retry?: boolean } {
  return flags['retry'] === true ? { retry: true } : {};
}

function defined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

function str(value: Flags[string]): string {
  return value as string;
}
function num(value: Flags[string]): number {
  return value as number;
}
function obj(value: Flags[string]): Record<string, unknown> {
  return (value ?? {}) as Record<string, unknown>;
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
          const shown = spec.kind === 'boolean' ? `--${flag}` : `--${flag} <${spec.kind === 'json' ? 'json' : spec.kind === 'integer' ? 'n' : 'value'}>`;
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
