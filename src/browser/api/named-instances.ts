/**
 * posthog-js's named instances: `posthog.init(token, config, 'name')` starts another client and
 * makes it reachable as `posthog.name`, for a page that reports to two projects (or twice to one).
 * The same name gives the same client again, as in posthog-js. Each keeps its own state (storage
 * keys carry the name, start.ts). Full build only: the lite tag warns about a named instance.
 */
import type { Hogtail } from '../hogtail';

/** The clients made here, to tell a named instance from a member that happens to have its name. */
const named = new WeakSet<object>();

/** The client named `name` on `client`, made at the first call; undefined (after a warning) when a member has that name. */
export function namedInstance(
  client: Hogtail,
  name: string,
  make: (name: string) => Hogtail,
  warn: (key: string, message: string) => void,
): Hogtail | undefined {
  const members = client as unknown as Record<string, unknown>;
  const existing = members[name];
  if (existing === undefined) {
    const made = make(name);
    named.add(made);
    return (members[name] = made);
  }
  if (named.has(existing as object)) return existing as Hogtail;
  warn('instance ' + name, `init(): instance name "${name}" is already a member of the client; choose another name`);
}
