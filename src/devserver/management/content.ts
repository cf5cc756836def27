/** The downloadable content of an exported asset: from the fixtures, or rendered from its format. */
import type { ExportedAsset } from '../../api/types';
import type { ExportContentFixture } from './fixtures';

export interface RenderedContent {
  contentType: string;
  bytes: Uint8Array;
}

// A valid 1×1 PNG, so a downloaded "image" export opens in a viewer.
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export function renderExportContent(asset: ExportedAsset, fixture: ExportContentFixture | undefined): RenderedContent {
  if (fixture !== undefined) {
    return { contentType: fixture.contentType, bytes: decode(fixture.body, fixture.encoding ?? 'utf8') };
  }
  switch (asset.export_format) {
    case 'image/png':
      return { contentType: 'image/png', bytes: decode(PNG_1X1, 'base64') };
    case 'application/pdf':
      return { contentType: 'application/pdf', bytes: decode(minimalPdf(asset), 'utf8') };
    default:
      return { contentType: 'text/csv; charset=utf-8', bytes: decode(csv(asset), 'utf8') };
  }
}

/** Export 1 is large (hundreds of KB) so a streamed download arrives in several chunks. */
function csv(asset: ExportedAsset): string {
  const rows = asset.id === 1 ? 20_000 : 25;
  const lines = ['day,event,count'];
  for (let i = 0; i < rows; i++) {
    const day = new Date(Date.UTC(2024, 0, 1) + (i % 365) * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${day},${i % 2 === 0 ? '$pageview' : 'signed_up'},${(i * 31 + asset.id) % 997}`);
  }
  return `${lines.join('\n')}\n`;
}

function minimalPdf(asset: ExportedAsset): string {
  return `%PDF-1.4\n% hogtail dev export ${asset.id}\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`;
}

function decode(body: string, encoding: 'utf8' | 'base64'): Uint8Array {
  return new Uint8Array(Buffer.from(body, encoding));
}
