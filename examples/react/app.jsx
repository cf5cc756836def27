// A small React app on hogtail/react: the provider initialises hogtail, a flag picks the checkout
// button (with its payload), clicks are captured, and an error boundary records a broken widget.
// Flags come from the collector's flags file (examples/flags.json under `hogtail dev`).
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { PostHogErrorBoundary, PostHogFeature, PostHogProvider, useFeatureFlagVariantKey, usePostHog } from 'hogtail/react';

const options = { api_host: window.COLLECTOR_URL, person_profiles: 'identified_only' };

function Checkout() {
  const posthog = usePostHog();
  const variant = useFeatureFlagVariantKey('checkout-button');
  return (
    <section>
      <p id="variant">checkout-button: {variant === undefined ? 'loading…' : String(variant)}</p>
      <PostHogFeature flag="checkout-button" match="green" fallback={<button id="buy" onClick={() => posthog.capture('checkout clicked', { variant })}>Checkout</button>}>
        {(payload) => (
          <button id="buy" style={{ background: payload?.color }} onClick={() => posthog.capture('checkout clicked', { variant })}>
            {payload?.label ?? 'Buy now'}
          </button>
        )}
      </PostHogFeature>
    </section>
  );
}

function Widget() {
  const [broken, setBroken] = useState(false);
  if (broken) throw new Error('the widget broke');
  return <button id="break" onClick={() => setBroken(true)}>Break the widget</button>;
}

function App() {
  const posthog = usePostHog();
  return (
    <main>
      <h1>hogtail/react example</h1>
      <button id="login" onClick={() => posthog.identify('user-1', { email: 'user-1@example.com' })}>Log in as user-1</button>
      <Checkout />
      <PostHogErrorBoundary fallback={<p id="fallback">Something broke; it was recorded.</p>}>
        <Widget />
      </PostHogErrorBoundary>
    </main>
  );
}

createRoot(document.getElementById('root')).render(
  <PostHogProvider apiKey="phc_example_project_key" options={options}>
    <App />
  </PostHogProvider>,
);
