/**
 * The Node HttpExecutor: node:http(s) with a keep-alive agent. Measured faster than global fetch
 * (undici) for many small POSTs to one host, and it lets the whole-request deadline destroy the
 * socket so a hanging server cannot pin a request forever.
 */
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { HttpExecutor, HttpRequest, HttpResponse } from '../core/transport';

export interface NodeExecutor {
  execute: HttpExecutor;
  /** Closes idle keep-alive sockets so nothing lingers after shutdown. */
  destroy(): void;
}

const header = (res: IncomingMessage, name: string): string | null => {
  const value = res.headers[name];
  return typeof value === 'string' ? value : null;
};

/**
 * The body up to `max` bytes. Past the cap it stops reading and drops the socket rather than hold
 * a huge or endless body in memory; `truncated` then says the text is only the beginning.
 */
function readCapped(res: IncomingMessage, max: number): Promise<{ body: string; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const done = (truncated: boolean) => resolve({ body: Buffer.concat(chunks).subarray(0, max).toString('utf8'), truncated });
    res.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      bytes += chunk.length;
      if (bytes > max) {
        res.removeAllListeners('data');
        res.destroy();
        done(true);
      }
    });
    res.on('end', () => done(false));
    res.on('error', reject);
  });
}

export function createNodeExecutor(): NodeExecutor {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 4 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 4 }),
  };

  const execute = (request: HttpRequest): Promise<HttpResponse> =>
    new Promise((resolve, reject) => {
      const url = new URL(request.url);
      const secure = url.protocol === 'https:';
      const body = typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
      const headers = body ? { ...request.headers, 'Content-Length': String(body.byteLength) } : request.headers;
      const agent = secure ? agents['https:'] : agents['http:'];
      const req = (secure ? https : http).request(url, { method: request.method, agent, headers }, (res) => {
        readCapped(res, request.maxResponseBytes).then((read) => {
          clearTimeout(deadline);
          resolve({
            status: res.statusCode ?? 0,
            ...read,
            retryAfter: header(res, 'retry-after'),
            etag: header(res, 'etag'),
            contentType: header(res, 'content-type'),
          });
        }, fail);
      });
      const deadline = setTimeout(() => {
        req.destroy(new Error(`no response within ${request.timeoutMs} ms`));
      }, request.timeoutMs);
      function fail(error: Error): void {
        clearTimeout(deadline);
        reject(error);
      }
      req.on('error', fail);
      req.end(body);
    });

  return {
    execute,
    destroy() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
