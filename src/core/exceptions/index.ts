/** Error tracking's platform-free parts: stack parsing, the `$exception` shape, the rate limiter. */
export {
  exceptionProperties,
  type ExceptionEntry,
  type ExceptionMechanism,
  type ExceptionOptions,
  type ExceptionProperties,
} from './exception-list';
export { createExceptionRateLimiter, type ExceptionRateLimiter } from './rate-limiter';
export { MAX_FRAMES, parseStack, type FramePlatform, type StackFrame } from './stack-frames';
