/**
 * A PostHog-like server for flag tests: `/flags/` and `/decide/` answer what the test scripts
 * (any status, body and headers, per request), and everything else is passed to a real collector
 * (so `$feature_flag_called` and other events are judged by the ingestion rules and recorded).
 */
import http from 'node:http';
import { createCollector, type Collector } from '../../src/devserver';

export interface FlagsCall {
  path: string;
  query: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface ScriptedAnswer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Answers one flags call; `index` counts calls to both endpoints from 0. */
export type FlagsScript = (call: FlagsCall, index: number) => ScriptedAnswer;

export interface FlagsServer {
  url: string;
  collector: Collector;
  calls: FlagsCall[];
  close(): Promise<void>;
}

export async function createFlagsServer(script: FlagsScript): Promise<FlagsServer> {
  const collector = await createCollector();
  const calls: FlagsCall[] = [];
  const target = new URL(collector.url);
  const server = http.createServer((req, res) => {
    const [path = '/', query = ''] = (req.url ?? '/').split('?');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (path === '/flags/' || path === '/decide/') {
        const call: FlagsCall = { path, query, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
        calls.push(call);
        const answer = script(call, calls.length - 1);
        const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json', ...answer.headers }).end(text);
        return;
      }
      const proxied = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      proxied.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    collector,
    calls,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await collector.close();
    },
  };
}
