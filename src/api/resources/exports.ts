/** Exported assets (a dashboard or insight rendered to a file) and their content. */
import { createOffsetListMethod, type OffsetListMethod } from '../list-method';
import { segment } from '../paths';
import type { ApiRequest, Requester } from '../request';
import type { ExportContent, ExportContentStream, ExportedAsset, ExportedAssetCreate, RequestOptions } from '../types';

export interface ExportsApi {
  list: OffsetListMethod<ExportedAsset>;
  create(asset: ExportedAssetCreate, options?: RequestOptions): Promise<ExportedAsset>;
  get(id: number | string, options?: RequestOptions): Promise<ExportedAsset>;
  /** The whole file in memory, with its content type. */
  content(id: number | string, options?: RequestOptions): Promise<ExportContent>;
  /**
   * The file as a web ReadableStream, for exports too large to hold in memory. The timeout covers
   * only the wait for the response headers; pass a signal to cancel the download itself.
   */
  contentStream(id: number | string, options?: RequestOptions): Promise<ExportContentStream>;
}

export function createExportsApi(requester: Requester): ExportsApi {
  const contentRequest = (id: number | string): ApiRequest => ({
    endpoint: 'exports.content',
    method: 'GET',
    path: `/exports/${segment(id, 'id')}/content/`,
    accept: '*/*',
  });
  return {
    list: createOffsetListMethod<ExportedAsset>(requester, {
      endpoint: 'exports.list',
      path: '/exports/',
      keyOf: (asset) => String(asset.id),
    }),
    create: async (asset, options) =>
      requester.json({ endpoint: 'exports.create', method: 'POST', path: '/exports/', body: asset }, options),
    get: async (id, options) => requester.json({ endpoint: 'exports.get', method: 'GET', path: `/exports/${segment(id, 'id')}/` }, options),
    content: async (id, options) =>
      requester.send(contentRequest(id), options, async (response) => ({
        bytes: new Uint8Array(await response.arrayBuffer()),
        contentType: contentTypeOf(response),
        filename: filenameOf(response),
      })),
    contentStream: async (id, options) =>
      requester.send(
        contentRequest(id),
        options,
        async (response) => ({
          stream: heldBody(response),
          contentType: contentTypeOf(response),
          filename: filenameOf(response),
          contentLength: contentLengthOf(response),
        }),
        true,
      ),
  };
}

function contentTypeOf(response: Response): string {
  return response.headers.get('content-type') ?? 'application/octet-stream';
}

function contentLengthOf(response: Response): number | undefined {
  const value = Number(response.headers.get('content-length') ?? Number.NaN);
  return Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** `filename*=UTF-8''…` (RFC 6266) wins over plain `filename=`, as browsers do. */
function filenameOf(response: Response): string | undefined {
  const header = response.headers.get('content-disposition');
  if (header === null) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1] !== undefined) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // Malformed percent-encoding: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/.exec(header);
  const value = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The body behind a stream of our own. Node's fetch (undici) cancels an unread, unlocked body once
 * its Response is garbage collected, and the caller keeps only the stream: a download read a moment
 * later then ends at 0 bytes with no error. Piping locks the body, which keeps it out of that sweep.
 */
function heldBody(response: Response): ReadableStream<Uint8Array> {
  return response.body === null ? emptyStream() : response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>());
}

function emptyStream(): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
}
