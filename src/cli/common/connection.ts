/**
 * Where events go and with which key, shared by `import` and `capture`. Flags win over the
 * environment so one command line is self-describing; the environment keeps the key out of shell
 * history for scripts that prefer it.
 */
import { DEFAULT_HOST } from '../../core/defaults';
import { UsageError, type ParsedFlags } from './flags';

export interface Connection {
  apiKey: string;
  host: string;
}

export function resolveConnection(flags: ParsedFlags, env: Record<string, string | undefined>): Connection {
  const apiKey = (flags.strings.get('api-key') ?? env.HOGTAIL_API_KEY ?? '').trim();
  if (apiKey === '') {
    throw new UsageError("no project API key: pass --api-key phc_… or set HOGTAIL_API_KEY (the project key from your project's settings)");
  }
  if (apiKey.startsWith('phx_')) {
    throw new UsageError('the key is a personal API key (phx_…); sending events needs the project API key (phc_…)');
  }
  const host = (flags.strings.get('host') ?? env.HOGTAIL_HOST ?? DEFAULT_HOST).trim().replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    throw new UsageError(`--host must be a URL such as ${DEFAULT_HOST}; got ${JSON.stringify(host)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--host must be an http or https URL; got ${JSON.stringify(host)}`);
  }
  return { apiKey, host };
}
