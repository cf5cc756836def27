/**
 * A standalone management API server on 127.0.0.1, for tests and for trying the client without an
 * account. Loopback only by default: it accepts well-known keys and serves whatever it is given.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ManagementFaults } from './faults';
import { createManagementHandler, type ManagementHandler, type ManagementHandlerOptions, type RecordedRequest } from './handler';
import { errorReply, writeReply } from './http';

export interface ManagementServerOptions extends ManagementHandlerOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  hostname?: string;
}

export interface ManagementServer {
  /** `http://127.0.0.1:<port>`, the client's `host`. */
  url: string;
  port: number;
  projectId: string;
  setFaults(faults: ManagementFaults): void;
  requests: RecordedRequest[];
  handler: ManagementHandler;
  /** Stops listening and drops open connections, stalled ones included. */
  close(): Promise<void>;
}

export async function createManagementServer(options: ManagementServerOptions = {}): Promise<ManagementServer> {
  const handler = createManagementHandler(options);
  const hostname = options.hostname ?? '127.0.0.1';
  const server: Server = createServer((req, res) => {
    handler.handle(req, res).then(
      (handled) => {
        if (!handled) writeReply(res, errorReply(404, 'invalid_request', 'not_found', 'Not found. Management endpoints live under /api/environments/.'));
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`,
    port,
    projectId: handler.projectId,
    setFaults: handler.setFaults,
    requests: handler.requests,
    handler,
    close: () =>
      new Promise<void>((resolve) => {
        handler.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
