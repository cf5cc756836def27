/**
 * Whether a checkpoint may be continued with the input at hand. Every row's uuid is derived from its
 * source's identity and its row number, and --resume skips the rows the checkpoint counts. On changed
 * input both go wrong: rows are re-sent under new uuids (duplicates the server cannot recognise, and
 * migrated data cannot be deleted) or rows that were never sent are skipped. So a changed input is
 * refused, never "resumed", and the message says how to go on.
 */
import type { SourceProgress } from './checkpoint';
import type { OpenedSource } from './open-source';

/** The refusal for a source that is not what the checkpoint was written for. */
export function changedInputMessage(label: string, isFile: boolean, detail: string, checkpointPath: string, sent: number): string {
  return (
    `${label} changed since the checkpoint was written (${detail}); resuming would re-send rows under different uuids. ` +
    `Restore the original ${isFile ? 'file' : 'input'}, or delete the checkpoint (${checkpointPath}) to import it as new data` +
    (sent > 0
      ? `: every row is then sent again under new uuids, so the ${sent} rows already sent would arrive twice. ` +
        `To send only the rows not sent yet, put them in a new file and import that.`
      : '.')
  );
}

/** What differs between the recorded source and the one opened now; undefined when they match. */
export function describeSourceChange(recorded: SourceProgress, source: OpenedSource): string | undefined {
  const recordedPath = recorded.path ?? undefined;
  if (recordedPath !== undefined && source.path !== undefined && recordedPath !== source.path) {
    return `the checkpoint was written for ${recordedPath}`;
  }
  const recordedSize = recorded.sizeBytes ?? undefined;
  const sizeChanged = recordedSize !== undefined && source.sizeBytes !== undefined && recordedSize !== source.sizeBytes;
  // Checked even when the identity matches: under --source-id the identity ignores size and content.
  if (sizeChanged) return `size ${recordedSize} → ${source.sizeBytes} bytes`;
  if (recorded.identity !== source.identity) return 'content differs';
  return undefined;
}
