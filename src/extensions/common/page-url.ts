/**
 * The page URL an extension sends with what it measures: the one the page's events carry, so
 * `mask_personal_data_properties` masks it there too, as posthog-js masks its heatmaps' and web
 * vitals' URLs. A tag older than the extension file has no `pageUrl`: the plain URL then.
 */
import type { ExtensionContext } from '../../browser/features/feature';

export const pageUrl = (context: Pick<ExtensionContext, 'pageUrl'>): string => context.pageUrl?.() ?? location.href;
