/**
 * `hogtail/react`: posthog-js/react's provider, hooks and components for hogtail, so a React app
 * switches by changing the import. React is an optional peer: only this entry imports it.
 */
export { PostHogContext } from './context';
export type { PostHogContextValue } from './context';
export { PostHogProvider } from './provider';
export type { PostHogProviderProps } from './provider';
export {
  useActiveFeatureFlags,
  useFeatureFlagEnabled,
  useFeatureFlagPayload,
  useFeatureFlagResult,
  useFeatureFlagVariantKey,
  usePostHog,
} from './hooks';
export { PostHogFeature, captureFeatureInteraction, captureFeatureView } from './feature';
export type { CaptureFeatureOptions, PostHogFeatureProps } from './feature';
export { PostHogErrorBoundary, setupReactErrorHandler } from './error-boundary';
export type { PostHogErrorBoundaryFallbackProps, PostHogErrorBoundaryProps } from './error-boundary';
export type { PostHogClient as PostHog } from './client-type';
// posthog-js has it under posthog-js/react/surveys; here it is part of hogtail/react.
export { useThumbSurvey } from './surveys';
export type { UseThumbSurveyOptions, UseThumbSurveyResult } from './surveys';
