/**
 * `hogtail dev`: the collector's rules, a persistent store, decide from a flags file, surveys from a
 * surveys file, the management
 * endpoints, and a live page, on one port. Routing order: the page and /_dev/* first, then
 * /api/environments/* (the management handler must see the request before anyone reads its body),
 * then every ingestion path through the same rules as `createCollector`.
 */
import { handleRecorderFile } from '../replay/recorder-file';
import { withSessionRecording } from '../replay/remote-config';
import type { DecideHandler } from '../ingest/types';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createAssignmentLog } from './assignments';
import { isAllowedHostHeader } from './host';
import { handleIngest, recordRejection, type IngestRouteContext } from './ingest-route';
import { createInsights } from './insights';
import { createPeopleIndex, type PeopleIndex } from './people';
import { handleDevRoute } from './routes';
import { ALL_PRODUCTS, productsRemoteConfig, type DevProducts } from './products';
import { handleRemoteConfig } from './remote-config';
import { openSurveysFile, readSurveyList } from './surveys-file';
import { openDevStore, type DevStore } from './store';
import { createEventStream } from './stream';
import { buildSummary, listFlagUsers, type DevSummary } from './summary';
import { escapeControls } from './terminal-text';
import { createFlagsDecide, type FlagsDecide } from '../flags';
import { handleDefinitionsRoute } from '../flags/definitions-route';
import { DEFAULT_KEYS } from '../management/auth';
import { createByteBudget } from '../ingest/budget';
import { describeError, type IngestOptions } from '../ingest/ingest';
import { listen } from '../http/listen';
import { createManagementHandler, type ManagementFixtures, type ManagementHandler } from '../management';
import { sendText, writeResponse } from '../http/respond';
import { parseRequestTarget } from '../ingest/routes';

export interface DevServerOptions extends Pick<IngestOptions, 'maxBodyBytes' | 'maxEventBytes' | 'maxInFlightBytes'> {
  /** Where events are kept (created if missing); start again on the same directory to keep them. */
  dataDir: string;
  /** Default 127.0.0.1. Anything else exposes captured data to the network. */
  host?: string;
  /** Default 0, any free port; `hogtail dev` uses 8010. */
  port?: number;
  /** A flags file, re-read on change. */
  flagsFile?: string;
  /** Or definitions given directly. Neither: decide answers no flags. */
  flags?: unknown;
  /** A surveys file (PostHog's shape), re-read on change: `GET /api/surveys/` lists them, and the remote config says the project has surveys. */
  surveysFile?: string;
  /** Or surveys given directly. Neither: no surveys. */
  surveys?: unknown;
  /** Management data; groups always come from `$groupidentify` events instead. Default: the seed fixtures. */
  fixtures?: ManagementFixtures;
  projectId?: string | number;
  /** One line per rejected request, flags reload, and storage problem. Default: none. */
  log?: (line: string) => void;
  maxEventsInMemory?: number;
  /** The browser products its remote config turns on (web vitals, heatmaps, dead clicks). Default: all. */
  products?: Partial<DevProducts>;
  /** Whether the remote config turns session replay on for the apps pointed here. Default true. */
  sessionRecording?: boolean;
}

export interface DevServer {
  /** e.g. http://127.0.0.1:8010, what an SDK takes as its host and where the page is. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly store: DevStore;
  readonly people: PeopleIndex;
  readonly flags: FlagsDecide;
  readonly management: ManagementHandler;
  summary(): DevSummary;
  close(): Promise<void>;
}

/** The flags the dev server answers: from the options' definitions or file, each answer recorded for the page. */
function devFlags(
  options: DevServerOptions,
  people: ReturnType<typeof createPeopleIndex>,
  assignments: ReturnType<typeof createAssignmentLog>,
  stream: ReturnType<typeof createEventStream>,
  log: (line: string) => void,
) {
  return createFlagsDecide({
    ...(options.flagsFile === undefined ? { definitions: options.flags ?? [] } : { file: options.flagsFile }),
    personProperties: (distinctId) => people.personProperties(distinctId),
    groupProperties: (groupType, groupKey) => people.groupProperties(groupType, groupKey),
    onDecide(request, response) {
      const at = new Date().toISOString();
      people.touch(request.distinct_id, at);
      const overrides: Record<string, unknown> = {};
      for (const field of ['groups', 'person_properties', 'group_properties'] as const) {
        if (request[field] !== undefined) overrides[field] = request[field];
      }
      assignments.record({ distinctId: request.distinct_id, at, featureFlags: response.featureFlags, overrides });
      stream.changed('decide');
    },
    onReload(definitions) {
      log(`flags: reloaded ${definitions.flags.length} flag(s) from ${options.flagsFile ?? 'the definitions'}`);
      stream.changed('flags');
    },
    onError(message) {
      log(`flags: ${message}`);
      stream.changed('flags');
    },
  });
}

/** The surveys /api/surveys/ lists: from the options' file (re-read on change) or list; none by default. */
function devSurveys(options: DevServerOptions, log: (line: string) => void): () => readonly unknown[] {
  if (options.surveysFile !== undefined) return openSurveysFile(options.surveysFile, (line) => log(`surveys: ${line}`)).current;
  const given = options.surveys === undefined ? [] : readSurveyList(options.surveys);
  return () => given;
}

/** The capture rules' options: the size limits, decide from the flags, /api/surveys/ from the surveys. */
function ingestOptionsOf(
  options: DevServerOptions,
  flags: DecideHandler,
  surveys: () => readonly unknown[],
  remote: Record<string, unknown>,
): IngestOptions {
  return {
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.maxEventBytes === undefined ? {} : { maxEventBytes: options.maxEventBytes }),
    // The flags answer carries the remote config (hogtail asks /flags/?v=2&config=true): the browser
    // products of products.ts, and `surveys`, which tells the SDK to load its surveys code.
    decide: async (request, headers) => ({ ...(await flags(request, headers)), ...remote, surveys: surveys().length > 0 }),
    surveys,
  };
}

/** The event store, with the people index and the live page's insights kept in step with it (loaded, added, cleared). */
async function openObservedStore(options: DevServerOptions) {
  const people = createPeopleIndex();
  const insights = createInsights();
  const store = await openDevStore(options.dataDir, {
    onLoadEvent(event) {
      people.observe(event);
      insights.observe(event);
    },
    ...(options.maxEventsInMemory === undefined ? {} : { maxEventsInMemory: options.maxEventsInMemory }),
  });
  store.subscribe((change) => {
    if (change.kind === 'events') for (const event of change.events) insights.observe(event);
    if (change.kind !== 'cleared') return;
    people.reset();
    insights.reset();
  });
  return { people, insights, store };
}

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const host = options.host ?? '127.0.0.1';
  // Request bodies reach these lines (a malformed-JSON message quotes the body): no raw controls.
  const log = (line: string): void => options.log?.(escapeControls(line));
  const { people, insights, store } = await openObservedStore(options);
  const stream = createEventStream(store);
  const assignments = createAssignmentLog();

  const flags = devFlags(options, people, assignments, stream, log);

  const management = createManagementHandler({
    ...(options.fixtures === undefined ? {} : { fixtures: options.fixtures }),
    ...(options.projectId === undefined ? {} : { projectId: options.projectId }),
    groupsSource: (groupTypeIndex) => people.groups(groupTypeIndex),
  });

  const surveys = devSurveys(options, log);
  const hasFlags = () => flags.definitions().flags.some((flag) => flag.active && !flag.deleted);
  const remote = productsRemoteConfig({ ...ALL_PRODUCTS, ...options.products });
  const decide = withSessionRecording(flags, options.sessionRecording !== false);
  const ingestOptions = ingestOptionsOf(options, decide, surveys, remote);
  const summary = (): DevSummary => buildSummary({ store, people, assignments, flags, insights });
  const ingest: IngestRouteContext = {
    store,
    people,
    options: ingestOptions,
    budget: createByteBudget(options.maxInFlightBytes),
    dataDir: options.dataDir,
    log,
  };
  let lastRequestId = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const requestId = ++lastRequestId;
    const target = parseRequestTarget(req.url);
    const method = req.method ?? '';
    try {
      const devContext = {
        store,
        stream,
        summary,
        boundHost: host,
        flagUsers: (offset: number, limit: number) => listFlagUsers({ people, assignments, flags }, offset, limit),
      };
      if (await handleDevRoute(req, res, target, devContext)) return;
      if (handleRemoteConfig(req, res, target, hasFlags, () => surveys().length > 0, remote, options.sessionRecording !== false)) return;
      if (handleRecorderFile(req, res, target)) return;
      if (handleDefinitionsRoute(req, res, target, { definitions: flags.definitions, keys: DEFAULT_KEYS, boundHost: host })) return;
      if (target.pathname.startsWith('/api/') && !isAllowedHostHeader(req.headers.host, host)) {
        // The management endpoints hold captured group properties and accept the well-known dev key:
        // the same DNS-rebinding guard as the page.
        writeResponse(
          res,
          403,
          { 'Content-Type': 'text/plain; charset=utf-8' },
          'this dev server only answers requests addressed to localhost',
        );
        return;
      }
      if (await management.handle(req, res)) return;
      await handleIngest(req, res, requestId, ingest);
    } catch (error) {
      const reason = `dev server error: ${describeError(error)}`;
      recordRejection(ingest, { requestId, method, path: target.pathname, status: 500, reason });
      sendText(req, res, 500, reason);
    }
  };

  let server: Awaited<ReturnType<typeof listen>>;
  try {
    server = await listen((req, res) => void handle(req, res), host, options.port ?? 0);
  } catch (error) {
    stream.close();
    throw error;
  }

  return {
    url: server.url,
    port: server.port,
    dataDir: options.dataDir,
    store,
    people,
    flags,
    management,
    summary,
    async close() {
      stream.close();
      management.close();
      await server.close();
    },
  };
}
