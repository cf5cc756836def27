/**
 * What the fetch and XHR wrappers hand their requests to (plugin.ts builds it): the settings, the
 * test for the SDK's own requests (never wrapped, never recorded), and where finished records go.
 */
import type { CapturedRequest } from './request-record';
import type { HeaderRule, NetworkSettings } from './settings';

export interface NetworkSink {
  readonly settings: NetworkSettings;
  /** Whether `url` (absolute) is one of the SDK's own requests. */
  own(url: string): boolean;
  /** A request's records (the request, then its server timings), before masking. */
  record(records: CapturedRequest[]): void;
}

/** Whether the settings want the request's or the response's headers. */
export const wantsHeaders = (rule: HeaderRule, kind: 'request' | 'response'): boolean =>
  typeof rule === 'boolean' ? rule : rule[kind] === true;

/** Headers as a plain object (names as the browser gives them: lower case). */
export function headersObject(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}
