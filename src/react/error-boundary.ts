/**
 * `PostHogErrorBoundary`: catches a render error below it, records it with the client's
 * `captureException` (React's component stack added as a cause, as posthog-js/react does), and
 * renders `fallback` (an element, or a component given the error and a reset function).
 */
import { Component, createElement, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import type { PostHogClient } from './client-type';
import { PostHogContext, type PostHogContextValue } from './context';

type Properties = Record<string, unknown>;

export interface PostHogErrorBoundaryFallbackProps {
  error: unknown;
  exceptionEvent: unknown;
  componentStack: string;
  resetError: () => void;
}

export interface PostHogErrorBoundaryProps {
  children?: ReactNode | (() => ReactNode);
  fallback?: ReactNode | ComponentType<PostHogErrorBoundaryFallbackProps>;
  additionalProperties?: Properties | ((error: unknown, errorInfo: ErrorInfo) => Properties);
}

interface BoundaryState {
  caught: boolean;
  error: unknown;
  componentStack: string;
  exceptionEvent: unknown;
}

const CLEAR: BoundaryState = { caught: false, error: undefined, componentStack: '', exceptionEvent: undefined };

/** Records the error through the client; React's component stack rides along as its cause. */
export function captureReactError(client: PostHogClient, error: unknown, info: ErrorInfo, properties?: Properties): unknown {
  const stack = info.componentStack;
  if (stack && error instanceof Error && error.cause === undefined) {
    const cause = new Error(error.message);
    cause.name = 'React ErrorBoundary ' + error.name;
    cause.stack = stack;
    try {
      error.cause = cause;
    } catch {
      // A frozen error is recorded without the component stack.
    }
  }
  // A boundary must never throw itself (React would unmount the whole tree), so a client without
  // captureException (an older script tag on the page) gets a warning instead of a crash.
  if (typeof client.captureException === 'function') return client.captureException(error, properties);
  console.warn('[hogtail] PostHogErrorBoundary: this client has no captureException(); the error was not recorded');
  return undefined;
}

export class PostHogErrorBoundary extends Component<PostHogErrorBoundaryProps, BoundaryState> {
  static override contextType = PostHogContext;
  declare context: PostHogContextValue;
  override state: BoundaryState = CLEAR;

  private readonly resetError = (): void => this.setState(CLEAR);

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    const extra = this.props.additionalProperties;
    const properties = typeof extra === 'function' ? extra(error, info) : extra;
    const exceptionEvent = captureReactError(this.context.client, error, info, properties);
    this.setState({ caught: true, error, componentStack: info.componentStack ?? '', exceptionEvent });
  }

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    // The fallback shows on the very next render; componentDidCatch adds the stack and the event.
    return { caught: true, error };
  }

  override render(): ReactNode {
    const { children, fallback } = this.props;
    if (!this.state.caught) return typeof children === 'function' ? children() : children;
    const { error, componentStack, exceptionEvent } = this.state;
    if (typeof fallback === 'function') {
      const Fallback = fallback as ComponentType<PostHogErrorBoundaryFallbackProps>;
      return createElement(Fallback, { error, componentStack, exceptionEvent, resetError: this.resetError });
    }
    return fallback ?? null;
  }
}

/** For React 19's `onCaughtError` / `onUncaughtError` root options. */
export const setupReactErrorHandler =
  (client: PostHogClient, callback?: (event: unknown, error: unknown, info: ErrorInfo) => void) =>
  (error: unknown, info: ErrorInfo): void => {
    const event = captureReactError(client, error, info);
    callback?.(event, error, info);
  };
