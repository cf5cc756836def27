/**
 * `PostHogFeature`: renders its children when the flag matches (`match`, or any enabled value when
 * no match is given), `fallback` otherwise, and records `$feature_view` once when first seen and
 * `$feature_interaction` once on the first click, with posthog-js/react's event properties.
 */
import { createElement, Fragment, useEffect, useRef, type HTMLAttributes, type ReactElement, type ReactNode } from 'react';
import type { FlagValue, PostHogClient } from './client-type';
import { useFeatureFlagPayload, useFeatureFlagVariantKey, usePostHog } from './hooks';

export type PostHogFeatureProps = Omit<HTMLAttributes<HTMLDivElement>, 'children'> & {
  flag: string;
  children: ReactNode | ((payload: unknown) => ReactNode);
  fallback?: ReactNode;
  match?: string | boolean;
  visibilityObserverOptions?: IntersectionObserverInit;
  trackInteraction?: boolean;
  trackView?: boolean;
};

export interface CaptureFeatureOptions {
  flag: string;
  posthog: PostHogClient;
  flagVariant?: FlagValue | undefined;
}

function captureFeatureEvent(event: string, { flag, posthog, flagVariant }: CaptureFeatureOptions): void {
  const properties: Record<string, unknown> = { feature_flag: flag, $set: { [`${event}/${flag}`]: flagVariant ?? true } };
  if (typeof flagVariant === 'string') properties.feature_flag_variant = flagVariant;
  posthog.capture(event, properties);
}

export const captureFeatureView = (options: CaptureFeatureOptions): void => captureFeatureEvent('$feature_view', options);
export const captureFeatureInteraction = (options: CaptureFeatureOptions): void => captureFeatureEvent('$feature_interaction', options);

export function PostHogFeature(props: PostHogFeatureProps): ReactElement {
  const { flag, match, children, fallback, visibilityObserverOptions, trackInteraction, trackView, onClick, ...rest } = props;
  const variant = useFeatureFlagVariantKey(flag);
  const payload = useFeatureFlagPayload(flag);
  const posthog = usePostHog();
  const element = useRef<HTMLDivElement>(null);
  // What was recorded already, as "view" / "click" keys: each once per mount.
  const recorded = useRef(new Set<string>());
  const shown = variant !== undefined && (match === undefined ? variant !== false : variant === match);
  const record = (what: string, capture: typeof captureFeatureView) => {
    if (recorded.current.has(what)) return;
    recorded.current.add(what);
    capture({ flag, posthog, flagVariant: variant });
  };

  useEffect(() => {
    const target = element.current;
    if (!shown || trackView === false || !target) return;
    // Without IntersectionObserver (old browsers) being mounted counts as being seen.
    if (typeof IntersectionObserver === 'undefined') return record('view', captureFeatureView);
    const observer = new IntersectionObserver(
      (entries) => entries.some((entry) => entry.isIntersecting) && record('view', captureFeatureView),
      { threshold: 0.1, ...visibilityObserverOptions },
    );
    observer.observe(target);
    return () => observer.disconnect();
  });

  if (!shown) return createElement(Fragment, null, fallback);
  return createElement(
    'div',
    {
      ...rest,
      ref: element,
      onClick(event: Parameters<NonNullable<typeof onClick>>[0]) {
        if (trackInteraction !== false) record('click', captureFeatureInteraction);
        onClick?.(event);
      },
    },
    typeof children === 'function' ? children(payload) : children,
  );
}
