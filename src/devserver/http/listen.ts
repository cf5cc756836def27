/**
 * Binding a request listener to a host and port, with a close that does not wait on idle sockets.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Listening {
  url: string;
  port: number;
  /** Stops listening and destroys every open socket, idle keep-alive and stalled ones included. */
  close(): Promise<void>;
}

/**
 * `server.close()` alone waits for keep-alive sockets to time out and for answers that never come,
 * which keeps a test process alive; so sockets are tracked and destroyed on close.
 */
export async function listen(listener: RequestListener, host: string, port: number): Promise<Listening> {
  const server = createServer({ keepAlive: true }, listener);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const bound = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    port: bound,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
