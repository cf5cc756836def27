// The examples send to the one `hogtail dev` the README starts (`npx hogtail dev`, or `npm start`),
// never to a collector of their own, so everything they capture shows on its live page.
export const DEFAULT_COLLECTOR = 'http://127.0.0.1:8010';

/** HOGTAIL_HOST, or the default; exits with what to do when nothing answers there. */
export async function collectorAddress() {
  const url = (process.env.HOGTAIL_HOST ?? DEFAULT_COLLECTOR).replace(/\/+$/, '');
  try {
    const response = await fetch(`${url}/_dev/summary`);
    if (response.ok) return url;
  } catch {
    // Reported below.
  }
  console.error(`No hogtail dev answers at ${url}. Start it first (npx hogtail dev, or npm start), or set HOGTAIL_HOST to its address.`);
  process.exit(1);
}
