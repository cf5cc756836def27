import { randomUUID } from 'node:crypto';

export const KEY = 'phc_testProjectKey_123';

export interface Reply {
  status: number;
  text: string;
  headers: Headers;
}

export async function post(
  url: string,
  body: string | Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = { 'Content-Type': 'application/json' },
): Promise<Reply> {
  const response = await fetch(url, { method: 'POST', body, headers });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

export function postJson(url: string, value: unknown, headers?: Record<string, string>): Promise<Reply> {
  return post(url, JSON.stringify(value), headers);
}

export function anEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event: 'clicked',
    distinct_id: 'user-1',
    properties: { plan: 'pro' },
    timestamp: '2024-05-01T10:00:00.000Z',
    uuid: randomUUID(),
    ...overrides,
  };
}

export function aBatch(events: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { api_key: KEY, batch: events, sent_at: '2024-05-01T10:00:01.000Z', ...extra };
}
