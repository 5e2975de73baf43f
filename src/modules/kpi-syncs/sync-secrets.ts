import type { Sealed, SecretBox } from '../../common/crypto/secret-box';

/**
 * Write-only secrets of KPI HTTP syncs, sealed by the shared SecretBox (purpose
 * `kpi-http-sync-secrets`). The additional authenticated data binds each ciphertext to its
 * organization, sync and name, so a row copied elsewhere does not decrypt. Plaintext exists only
 * in memory while a request is being built; it is never returned or logged.
 */
export type SealedSecret = Sealed;
export const SYNC_SECRETS_PURPOSE = 'kpi-http-sync-secrets';

const aad = (orgId: string, syncId: string, name: string) => `kpi-http-sync-secret:v1:${orgId}:${syncId}:${name}`;

export function sealSecret(box: SecretBox, orgId: string, syncId: string, name: string, value: string): SealedSecret {
  return box.seal(value, aad(orgId, syncId, name));
}

/** The plaintext, or null when the row was sealed under another key or was tampered with. */
export function openSecret(box: SecretBox, orgId: string, syncId: string, name: string, s: SealedSecret): string | null {
  return box.open(s, aad(orgId, syncId, name));
}
