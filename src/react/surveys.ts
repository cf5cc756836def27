/**
 * posthog-js/react's survey hook (`posthog-js/react/surveys`): `useThumbSurvey`, a thumbs up/down
 * the app draws itself that records the answer as the survey's first question and then opens the
 * rest of the survey (if any) next to the thumbs, through the client's displaySurvey (the surveys
 * extension). `survey shown` is sent when the component mounts, unless the app says when.
 */
import { useCallback, useEffect, useRef, useState, type RefCallback } from 'react';
import { usePostHog } from './hooks';

export interface UseThumbSurveyOptions {
  surveyId: string;
  /** Where the rest of the survey opens (posthog-js's positions); default next to the thumbs. */
  displayPosition?: string;
  /** Added to the survey's events. */
  properties?: Record<string, unknown>;
  onResponse?: (response: 'up' | 'down') => void;
  /** Send `survey shown` yourself, with the returned trackShown, when the thumbs come into view. */
  disableAutoShownTracking?: boolean;
}

export interface UseThumbSurveyResult {
  respond: (value: 'up' | 'down') => void;
  response: 'up' | 'down' | null;
  /** Put on the element the rest of the survey opens next to. */
  triggerRef: RefCallback<HTMLElement>;
  trackShown?: () => void;
}

const TRIGGER = 'data-hogtail-thumb-survey';
let instances = 0;

export function useThumbSurvey(options: UseThumbSurveyOptions): UseThumbSurveyResult {
  const { surveyId, displayPosition = 'next_to_trigger', properties, onResponse, disableAutoShownTracking } = options;
  const client = usePostHog();
  const [response, setResponse] = useState<'up' | 'down' | null>(null);
  const [trigger] = useState(() => `${surveyId}-${++instances}`);
  const shown = useRef(false);
  const responded = useRef(false);
  const triggerRef = useCallback<RefCallback<HTMLElement>>((element) => element?.setAttribute(TRIGGER, trigger), [trigger]);
  const trackShown = useCallback(() => {
    if (shown.current) return;
    shown.current = true;
    client.capture('survey shown', { $survey_id: surveyId, ...properties });
  }, [client, surveyId, properties]);
  useEffect(() => {
    if (!disableAutoShownTracking) trackShown();
  }, [trackShown, disableAutoShownTracking]);
  const respond = useCallback(
    (value: 'up' | 'down') => {
      if (responded.current) return;
      responded.current = true;
      setResponse(value);
      onResponse?.(value);
      // Thumbs up is the rating's 1, down its 2 (a 2-point scale), as posthog-js records them.
      client.displaySurvey(surveyId, {
        displayType: 'popover',
        ignoreConditions: true,
        ignoreDelay: true,
        properties,
        initialResponses: { 0: value === 'up' ? 1 : 2 },
        position: displayPosition,
        selector: `[${TRIGGER}="${trigger}"]`,
        skipShownEvent: true,
      });
    },
    [client, surveyId, properties, onResponse, displayPosition, trigger],
  );
  return { respond, response, triggerRef, ...(disableAutoShownTracking && { trackShown }) };
}
