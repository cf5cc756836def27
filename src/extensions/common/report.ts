/**
 * How an extension's own listeners run: a DOM event or a timer of the page calls them outside any
 * hook, so nothing guards them; a failure here is reported (`<extension>: <what> failed (…)`)
 * and never reaches the page.
 */
import { HogtailError } from '../../core/errors';
import { textOf } from '../../core/text-of';
import type { ExtensionContext } from '../../browser/features/feature';

export const safely =
  <A extends unknown[]>(context: ExtensionContext, name: string, what: string, fn: (...args: A) => void) =>
  (...args: A): void => {
    try {
      fn(...args);
    } catch (error) {
      context.report(new HogtailError(`${name}: ${what} failed (${textOf(error)}); it goes on`));
    }
  };
