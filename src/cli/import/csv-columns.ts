/**
 * The columns the mapping reads must be in the CSV header. A missing one would not fail loudly: every
 * row would be rejected one by one ("event name is missing"), or a mapped property would silently
 * never be set. So the header is checked before the first row, and the import stops there.
 */
import type { Mapping } from './mapping';

/** Why the header cannot serve the mapping, or undefined when every needed column is there. */
export function missingCsvColumn(mapping: Mapping, columns: readonly string[], label: string): string | undefined {
  const present = new Set(columns);
  const needed: Array<[target: string, column: string]> = [
    ['event', mapping.event],
    ['timestamp', mapping.timestamp],
    ...mapping.properties,
  ];
  // Unmapped, the distinct id may come from a $distinct_id column instead (row-to-event.ts).
  if (mapping.distinctIdMapped || !present.has('$distinct_id')) needed.splice(1, 0, ['distinct_id', mapping.distinctId]);
  for (const [target, column] of needed) {
    if (present.has(column)) continue;
    return `column \`${column}\` (for ${target}) is not in the CSV header of ${label} (columns: ${columns.join(', ')}); use --map ${target}=COLUMN`;
  }
  return undefined;
}
