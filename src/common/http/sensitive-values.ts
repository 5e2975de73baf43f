/**
 * Values that must never be stored where a client expects an identifier: credentials, tokens and
 * local filesystem paths. Shared by every module that takes such identifiers (KPI HTTP sync URL
 * paths, execution `harness_kind` / `external_run_id`, runner host ids).
 */

/** Known token prefixes, JWTs, bearer values and long mixed-case random segments. */
const SECRET_PATTERNS = [
  /\b(sk|pk|rk)[-_](live|test)[-_]/i,
  /\bsk-[A-Za-z0-9_-]{12,}/,
  /\bsk_service_/i,
  /\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/,
  /\bgithub_pat_/i,
  /\bxox[abprs]-/,
  /\bAKIA[0-9A-Z]{16}\b/,
  /\bAIza[0-9A-Za-z_-]{30,}/,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
  /\bbearer\s+\S/i,
];

/** Whether `v` looks like a credential (defence in depth against pasted secrets). */
export function looksLikeSecret(v: string): boolean {
  if (SECRET_PATTERNS.some((re) => re.test(v))) return true;
  return v.split(/[/.;,=:]/).some((seg) => seg.length >= 32 && /^[A-Za-z0-9_-]+$/.test(seg) && /[a-z]/.test(seg) && /[A-Z]/.test(seg) && /\d/.test(seg));
}

/** Stricter: also long lower-case hex or base64-like runs (raw key material), for short identifier fields. */
export function looksLikeTokenMaterial(v: string): boolean {
  if (looksLikeSecret(v)) return true;
  return /[A-Fa-f0-9]{40,}/.test(v) || /(?:secret|password|passwd|token|api[_-]?key|private[_-]?key)\s*[:=]/i.test(v);
}

/** Local filesystem paths: absolute POSIX, home-relative, Windows drive or UNC paths, file URLs, parent traversal. */
export function looksLikeLocalPath(v: string): boolean {
  return (
    /^\s*\//.test(v) ||
    /^\s*~/.test(v) ||
    /^[A-Za-z]:[\\/]/.test(v) ||
    /^\\\\/.test(v) ||
    /\bfile:\/\//i.test(v) ||
    /(^|[\\/])\.\.([\\/]|$)/.test(v) ||
    /\\/.test(v)
  );
}

/** An identifier safe to store and show: no credential, token material, path or control character. */
export function isSafeIdentifier(v: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u001f\u007f-\u009f]/.test(v) && !looksLikeTokenMaterial(v) && !looksLikeLocalPath(v);
}
