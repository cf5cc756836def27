/**
 * What `hogtail api` can call: one entry per resource and action of the management client, with
 * the flags each takes. The command line is read in api-command.ts; this table is the whole of
 * what the command knows about the API.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { ApiClient } from '../../api/client';
import type { QueryParams } from '../../api/types';
import { UsageError } from '../common/flags';

export interface ApiCommandIo {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export type ApiFlagKind = 'string' | 'integer' | 'json' | 'boolean';

export interface ApiFlagSpec {
  kind: ApiFlagKind;
  required?: boolean;
  help: string;
}

export type Flags = Record<string, string | number | boolean | Record<string, unknown> | undefined>;

export interface Action {
  summary: string;
  flags: Record<string, ApiFlagSpec>;
  /** The flag a bare positional argument fills, e.g. `exports get 12`. */
  positional?: string;
  /** Unknown flags become query parameters (`--prompt x` → `?prompt=x`), for endpoints the spec leaves open. */
  passThrough?: boolean;
  run(client: ApiClient, flags: Flags, extra: QueryParams, io: ApiCommandIo): Promise<unknown>;
}

export const PAGE_FLAGS: Record<string, ApiFlagSpec> = {
  limit: { kind: 'integer', help: 'results per page' },
  offset: { kind: 'integer', help: 'index of the first result' },
  all: { kind: 'boolean', help: 'follow `next` and print every item as one array' },
};

const DELETED = { deleted: true };

export const RESOURCES: Record<string, Record<string, Action>> = {
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
        client.explicitMembers.update(
          str(flags['user-uuid']),
          { ...obj(flags['data']), ...defined({ level: flags['level'] }) },
          writeOptions(flags),
        ),
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
        all: PAGE_FLAGS['all'] as ApiFlagSpec,
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
      run: (client, flags) => client.groups.find({ group_type_index: num(flags['group-type-index']), group_key: str(flags['group-key']) }),
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
