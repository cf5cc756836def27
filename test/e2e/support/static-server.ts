/**
 * Serves the test pages on 127.0.0.1 at a port of its own, so the page's origin differs from the
 * collector's and every request the SDK makes is cross-origin, as on a real site.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StaticServer {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  /** Adds or replaces a route: `path` -> HTML text, or a file on disk when `file` is given. */
  page(path: string, html: string): void;
  file(path: string, diskPath: string, type?: string): void;
  close(): Promise<void>;
}

export async function startStaticServer(): Promise<StaticServer> {
  const routes = new Map<string, { body: () => string | Buffer; type: string }>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': route.type, 'Cache-Control': 'no-store' }).end(route.body());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    page(path, html) {
      routes.set(path, { body: () => html, type: 'text/html; charset=utf-8' });
    },
    file(path, diskPath, type = 'text/javascript; charset=utf-8') {
      routes.set(path, { body: () => readFileSync(diskPath), type });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
