// A URL an operator gives for the platform to call (a webhook endpoint, a seamless wallet): refused
// with a 400 when the platform may not call it (../_shared/public-url.ts), checked again before each send.
import { urlRefusal } from '../_shared/public-url.ts';
import type { ApiContext } from './context.ts';
import { Problem } from './problem.ts';

const URL_REFUSALS = {
  not_https: 'url must be https.',
  not_public: 'url must resolve to public addresses only.',
  unresolvable: 'url\'s host does not resolve.',
};

/** 400 unless the platform may call `url`; an absent url is not refused. */
export async function checkCallableUrl(ctx: ApiContext, url: string | undefined): Promise<void> {
  const refusal = url === undefined ? null : await urlRefusal(url, { allowPrivateUrls: ctx.config.allowPrivateUrls });
  if (refusal) {
    throw new Problem('validation_failed', 'The request body has invalid fields; see `errors`.', {
      errors: [{ pointer: '#/url', code: `url_${refusal}`, detail: URL_REFUSALS[refusal] }],
    });
  }
}
