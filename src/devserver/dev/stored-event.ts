/**
 * The shape of one event in `hogtail dev`'s store, on its own so the store and its search can both
 * name it without importing each other.
 */
import type { ReceivedEvent } from '../ingest/types';

/** An event as `hogtail dev` keeps it: `seq` is its position among all events ever stored, from 1. */
export interface StoredEvent extends ReceivedEvent {
  seq: number;
  /** What looked wrong but was accepted, e.g. a name that was not valid UTF-8. */
  warnings?: string[];
}
