/** Gzip on web APIs only (CompressionStream), for runtimes without node:zlib. */
export async function gzipWithCompressionStream(body: string): Promise<Uint8Array> {
  const compressed = new Response(body).body!.pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(compressed).arrayBuffer());
}
