/**
 * The scope each endpoint needs, copied from the Scope column of docs/management-api.md. Kept as
 * data rather than baked into messages so a 403 can say exactly which scope to add to the key, and so
 * the table is checked against the spec in one place. `null` means the spec lists no scope.
 */
export const ENDPOINT_SCOPES = {
  'explicitMembers.get': null,
  'explicitMembers.update': null,
  'explicitMembers.delete': null,
  'exports.list': 'export:read',
  'exports.create': 'export:write',
  'exports.get': 'export:read',
  'exports.content': 'export:read',
  'groups.list': 'group:read',
  'groups.find': null,
  'query.draftSql': null,
  'sessionRecordings.list': 'session_recording:read',
  'sessionRecordings.get': 'session_recording:read',
  'sessionRecordings.update': 'session_recording:write',
  'sessionRecordings.delete': 'session_recording:write',
  'sessionRecordings.sharing': 'sharing_configuration:read',
  'sessions.propertyDefinitions': null,
  'sessions.values': null,
  'subscriptions.list': 'subscription:read',
} as const satisfies Record<string, string | null>;

export type EndpointId = keyof typeof ENDPOINT_SCOPES;

/** Every scope an endpoint needs (docs/management-api.md, "Authentication and scopes"). */
export type Scope = NonNullable<(typeof ENDPOINT_SCOPES)[EndpointId]>;

export function scopeFor(endpoint: EndpointId): Scope | null {
  return ENDPOINT_SCOPES[endpoint];
}
