/**
 * The few rrweb types the recorder names, taken from @rrweb/record's own declarations, so the
 * recorder's code follows the rrweb version it is built with.
 */
import type { record } from '@rrweb/record';

export type RecordOptions = NonNullable<Parameters<typeof record>[0]>;
/** One recorded rrweb event: what the recorder reads of it (rrweb's own type is generic in `record`). */
export interface RecordedEvent {
  readonly type: number;
  readonly data: unknown;
  readonly timestamp: number;
}
export type RecordPlugin = NonNullable<RecordOptions['plugins']>[number];

/** rrweb's event types and incremental sources that the recorder looks at (values of rrweb's enums). */
export const FULL_SNAPSHOT = 2;
export const INCREMENTAL = 3;
export const META = 4;
export const CUSTOM = 5;
export const SOURCE_MUTATION = 0;
/** MouseMove, MouseInteraction, Scroll, ViewportResize, Input, TouchMove, MediaInteraction, Drag: what a user does. */
export const USER_SOURCES = [1, 2, 3, 4, 5, 6, 7, 12];
