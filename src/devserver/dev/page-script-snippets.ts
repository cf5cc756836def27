/**
 * The live page's empty state: three snippets to copy (script tag, npm, Node) that point an SDK at
 * this server, with its address as the browser reached it and a project key. The dev server takes
 * any project key; the snippets use DEV_PROJECT_KEY so they work as pasted.
 */
export const DEV_PROJECT_KEY = 'phc_hogtail_dev';

/** `{host}` and `{key}` are filled in by the page, as text. */
const SNIPPETS: Record<string, string> = {
  'snippet-script': `<script src="https://unpkg.com/hogtail/dist/hogtail.iife.js"></script>
<script>
  hogtail.init('{key}', { api_host: '{host}' });
  hogtail.capture('hello from the script tag');
</script>`,
  'snippet-npm': `// npm install hogtail
import posthog from 'hogtail';

posthog.init('{key}', { api_host: '{host}' });
posthog.capture('hello from the browser');`,
  'snippet-node': `// npm install hogtail
import { PostHog } from 'hogtail/node';

const posthog = new PostHog('{key}', { host: '{host}' });
posthog.capture({ distinctId: 'user-1', event: 'hello from node' });
await posthog.shutdown();`,
};

// `<` written as \u003c: a "</script>" in the snippets would otherwise end the page's script element.
export const PAGE_SCRIPT_SNIPPETS = `
  var SNIPPETS = ${JSON.stringify(SNIPPETS).replace(/</g, '\\u003c')};
  Object.keys(SNIPPETS).forEach(function (id) {
    var text = SNIPPETS[id].split('{host}').join(location.origin).split('{key}').join(${JSON.stringify(DEV_PROJECT_KEY)});
    $(id).textContent = text;
    var copy = $(id + '-copy');
    copy.addEventListener('click', function () {
      // The page is on a loopback address, which browsers treat as secure, so the clipboard is there.
      navigator.clipboard.writeText(text).then(
        function () { copy.textContent = 'Copied'; setTimeout(function () { copy.textContent = 'Copy'; }, 1500); },
        function () { copy.textContent = 'Select and copy'; }
      );
    });
  });
  $('snippet-key').textContent = ${JSON.stringify(DEV_PROJECT_KEY)};
`;
