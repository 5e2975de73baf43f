/** Stable failure codes of outbound requests (stored on delivery rows; never a response body). */
export type EgressErrorCode = 'blocked_address' | 'dns_failure' | 'timeout' | 'too_large' | 'redirect' | 'network_error' | 'invalid_url';

export const EGRESS_ERROR_CODES: readonly EgressErrorCode[] = [
  'blocked_address',
  'dns_failure',
  'timeout',
  'too_large',
  'redirect',
  'network_error',
  'invalid_url',
];

/** A failed outbound request. `message` is safe to show; it never contains the receiver's body. */
export class EgressError extends Error {
  constructor(
    readonly code: EgressErrorCode,
    message: string,
    /** The HTTP status when a response arrived (redirects, oversized bodies). */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'EgressError';
  }
}
