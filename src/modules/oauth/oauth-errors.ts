import { DomainError } from '../../common/errors/domain-error';

/**
 * OAuth protocol errors (RFC 6749 §5.2, RFC 7591 §3.2.2): the body's `error` is the OAuth error
 * code (what OAuth clients read), with `error_description`; `code` repeats it (the service's error shape).
 */
export function oauthError(code: string, description: string, status = 400): DomainError {
  const e = new DomainError(status, code, code, { error_description: description });
  return e;
}

/** The stable profile-selection errors of OAuth-bound calls (interface.md, "OAuth agent profiles"). */
export const ProfileErrors = {
  noProfiles: () => new DomainError(403, 'no_profiles_authorized', 'This OAuth connection has no usable agent profile; reconnect and select an agent'),
  required: () => new DomainError(400, 'profile_required', 'This OAuth connection covers several agents: select one with profile_ref'),
  invalid: () => new DomainError(400, 'invalid_profile', 'profile_ref does not name a usable agent profile of this OAuth connection'),
  notSupported: () => new DomainError(400, 'profile_selector_not_supported', 'Agent profiles and profile_ref apply to OAuth connections, not to API keys'),
};
