/**
 * The Node HttpExecutor: node:http(s) with a keep-alive agent. Measured faster than global fetch
 * (undici) for many small POSTs to one host, and it lets the whole-request deadline destroy the
 * socket so a hanging server cannot pin a request forever.
 */
import http from 'node:http';
import https from 'node:https';
import { MAX_RESPONSE_BYTES, type HttpExecutor, type HttpRequest, type HttpResponse } from '../core/transport';

export interface NodeExecutor {
  execute: HttpExecutor;
  /** Closes idle keep-alive sockets so nothing lingers after shutdown. */
  destroy(): void;
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
      const req = (secure ? https : http).request(
        url,
        {
          method: 'POST',
          agent: secure ? agents['https:'] : agents['http:'],
          headers: { ...request.headers, 'Content-Length': String(body.byteLength) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          const done = () => {
            clearTimeout(deadline);
            const header = res.headers['retry-after'];
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8'),
              retryAfter: typeof header === 'string' ? header : null,
              contentType: res.headers['content-type'] ?? null,
            });
          };
          res.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            bytes += chunk.length;
            // The real server answers a few bytes: past the cap, stop reading (and drop the socket)
            // rather than hold a huge or endless body in memory.
            if (bytes >= MAX_RESPONSE_BYTES) {
              res.removeAllListeners('data');
              res.destroy();
              done();
            }
          });
          res.on('end', done);
          res.on('error', fail);
        },
      );
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
