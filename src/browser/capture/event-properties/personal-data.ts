/**
 * posthog-js's `mask_personal_data_properties`: a site that must not send its visitors' ad click
 * ids (they name one person's click) has them masked wherever a URL or a campaign property would
 * carry them: `$current_url`, the campaign parameters, the first page and the session's entry page.
 * `custom_personal_data_properties` names more query parameters to mask. As in posthog-js, the
 * referrer is not masked: it is another site's URL.
 */
import { CAMPAIGN_PARAMS } from './campaign';

export interface PersonalDataOptions {
  mask_personal_data_properties?: boolean;
  custom_personal_data_properties?: string[];
}

/** The click ids: posthog-js's list of the campaign parameters that are personal data. */
const PERSONAL_PARAMS = CAMPAIGN_PARAMS.slice(7);

/**
 * `url` with the value of each query parameter in `names` replaced by `<masked>`, as posthog-js
 * writes it (the name stays, so reports still see that a click id came). A part of the query with
 * a second `?` in it is read piece by piece, as posthog-js reads it.
 */
export function maskParams(url: string, names: readonly string[]): string {
  const [, head, query, tail] = /^([^?#]*)\?([^#]*)(.*)$/s.exec(url) ?? [];
  if (query === undefined) return url;
  const masked = query.split('&').map((part) => {
    const pieces = part.split('?');
    const i = pieces.findIndex((piece) => names.includes(piece.split('=')[0]!));
    return i < 0
      ? part
      : pieces
          .slice(0, i)
          .concat(pieces[i]!.split('=')[0] + '=<masked>')
          .join('?');
  });
  return head + '?' + masked.join('&') + tail;
}

/**
 * What the options ask for: a function that masks a URL, or none when masking is off (so the
 * events of a site that does not mask pay nothing for it).
 * `custom_personal_data_properties` without masking on does nothing in posthog-js either; here it
 * says so once through `warn`.
 */
export function personalDataMask(
  options: PersonalDataOptions,
  warn: (key: string, message: string) => void,
): ((url: string) => string) | undefined {
  const custom = options.custom_personal_data_properties;
  if (!options.mask_personal_data_properties) {
    if (custom?.length)
      warn('custom_personal_data_properties', 'custom_personal_data_properties has no effect without mask_personal_data_properties: true');
    return undefined;
  }
  const names = PERSONAL_PARAMS.concat(Array.isArray(custom) ? custom : []);
  return (url) => maskParams(url, names);
}
