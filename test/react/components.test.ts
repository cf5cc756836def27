// @vitest-environment happy-dom
// PostHogFeature and PostHogErrorBoundary with a real client and a real server on 127.0.0.1.
import { act, Component, createElement, type ReactNode } from 'react';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { createHogtail, type Hogtail } from '../../src/browser';
import { PostHogErrorBoundary, PostHogFeature, PostHogProvider } from '../../src/react';
import { until, useReactPage } from './flag-server';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const page = useReactPage();
let keyCounter = 0;
let client: Hogtail;
beforeEach(() => {
  client = createHogtail();
});

const start = () => client.init(`phc_components_${++keyCounter}`, { api_host: page.server.url, capture_pageview: false, flush_at: 1 });
const render = (node: ReactNode) => act(async () => page.root.render(createElement(PostHogProvider, { client }, node)));
const named = (event: string) => page.server.events.filter((e) => e.event === event);

describe('PostHogFeature', () => {
  it('shows the fallback until the flag matches, then the children with the payload', async () => {
    page.server.setFlags({ checkout: 'new' }, { checkout: '{"label":"Pay now"}' });
    await render(
      createElement(PostHogFeature, {
        flag: 'checkout',
        match: 'new',
        fallback: createElement('span', { id: 'old' }, 'old checkout'),
        children: (payload: unknown) => createElement('button', { id: 'new' }, (payload as { label: string }).label),
      }),
    );
    expect(page.container.querySelector('#old')).not.toBeNull();
    await act(async () => void start());
    await act(() => until(() => page.container.querySelector('#new'), 'the matched variant'));
    expect(page.container.querySelector('#new')!.textContent).toBe('Pay now');
    expect(page.container.querySelector('#old')).toBeNull();
  });

  it('keeps the fallback when the variant does not match, and when the flag is off', async () => {
    page.server.setFlags({ checkout: 'control', beta: false });
    start();
    await render([
      createElement(PostHogFeature, {
        key: 1,
        flag: 'checkout',
        match: 'new',
        fallback: createElement('i', { id: 'a' }),
        children: createElement('b', { id: 'x' }),
      }),
      createElement(PostHogFeature, {
        key: 2,
        flag: 'beta',
        fallback: createElement('i', { id: 'b' }),
        children: createElement('b', { id: 'y' }),
      }),
    ]);
    await act(() =>
      until(() => page.server.flagRequests > 0 && client.getFeatureFlag('checkout', { send_event: false }) !== undefined, 'flags'),
    );
    expect(page.container.querySelector('#a')).not.toBeNull();
    expect(page.container.querySelector('#b')).not.toBeNull();
    expect(page.container.querySelector('#x') ?? page.container.querySelector('#y')).toBeNull();
  });

  it('records $feature_view once when shown and $feature_interaction once on click', async () => {
    // happy-dom lays nothing out, so its IntersectionObserver never reports; this one reports the
    // element in view as soon as it is observed, as a browser does for an element on screen.
    const original = globalThis.IntersectionObserver;
    globalThis.IntersectionObserver = class {
      constructor(private readonly report: IntersectionObserverCallback) {}
      observe(target: Element) {
        this.report([{ isIntersecting: true, target } as IntersectionObserverEntry], this as unknown as IntersectionObserver);
      }
      disconnect() {}
    } as unknown as typeof IntersectionObserver;
    onTestFinished(() => void (globalThis.IntersectionObserver = original));
    page.server.setFlags({ banner: 'blue' });
    start();
    await render(createElement(PostHogFeature, { flag: 'banner', id: 'wrap', children: createElement('button', { id: 'cta' }, 'Go') }));
    const button = (await act(() => until(() => page.container.querySelector<HTMLButtonElement>('#cta'), 'the feature')))!;
    await act(async () => {
      button.click();
      button.click();
    });
    await until(() => named('$feature_interaction').length > 0 && named('$feature_view').length > 0, 'both events');
    await client.flush();
    expect(named('$feature_view')).toHaveLength(1);
    expect(named('$feature_interaction')).toHaveLength(1);
    expect(named('$feature_view')[0]!.properties).toMatchObject({
      feature_flag: 'banner',
      feature_flag_variant: 'blue',
      $set: { '$feature_view/banner': 'blue' },
    });
    expect(named('$feature_interaction')[0]!.properties).toMatchObject({
      feature_flag: 'banner',
      $set: { '$feature_interaction/banner': 'blue' },
    });
    expect(page.container.querySelector('#wrap')).not.toBeNull();
  });
});

class Boom extends Component<{ when: boolean }> {
  override render(): ReactNode {
    if (this.props.when) throw new TypeError('the widget broke');
    return createElement('p', { id: 'fine' }, 'fine');
  }
}

describe('PostHogErrorBoundary', () => {
  it('renders the fallback with the error and records it through captureException', async () => {
    start();
    const silence = console.error;
    console.error = () => {};
    try {
      await render(
        createElement(PostHogErrorBoundary, {
          additionalProperties: { screen: 'checkout' },
          fallback: ({ error, exceptionEvent }: { error: unknown; exceptionEvent: unknown }) =>
            createElement(
              'div',
              { id: 'fallback' },
              `${(error as Error).message} / ${(exceptionEvent as { event: string } | undefined)?.event}`,
            ),
          children: createElement(Boom, { when: true }),
        }),
      );
    } finally {
      console.error = silence;
    }
    // The fallback is handed the event captureException returned.
    expect(page.container.querySelector('#fallback')!.textContent).toBe('the widget broke / $exception');
    await client.flush();
    const [event] = await until(() => named('$exception').length > 0 && named('$exception'), 'the $exception event');
    expect(event!.properties.screen).toBe('checkout');
    // The error first, then React's component stack as its cause.
    const list = event!.properties.$exception_list as { type: string; value: string }[];
    expect(list.map((entry) => entry.type)).toEqual(['TypeError', 'React ErrorBoundary TypeError']);
    expect(list[0]!.value).toBe('the widget broke');
  });

  it('renders its children when nothing throws', async () => {
    start();
    await render(
      createElement(PostHogErrorBoundary, { fallback: createElement('i', null, 'no'), children: createElement(Boom, { when: false }) }),
    );
    expect(page.container.querySelector('#fine')).not.toBeNull();
  });
});
