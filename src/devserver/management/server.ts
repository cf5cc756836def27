/**
 * A standalone management API server on 127.0.0.1, for tests and for trying the client without an
 * account. Loopback only by default: it accepts well-known keys and serves whatever it is given.
 */
import { listen } from '../http/listen';
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
  const server = await listen(
    (req, res) => {
      handler.handle(req, res).then(
        (handled) => {
          if (!handled)
            writeReply(
              res,
              errorReply(404, 'invalid_request', 'not_found', 'Not found. Management endpoints live under /api/environments/.'),
            );
        },
        () => res.destroy(),
      );
    },
    options.hostname ?? '127.0.0.1',
    options.port ?? 0,
  );
  return {
    url: server.url,
    port: server.port,
    projectId: handler.projectId,
    setFaults: handler.setFaults,
    requests: handler.requests,
    handler,
    close() {
      handler.close();
      return server.close();
    },
  };
}
