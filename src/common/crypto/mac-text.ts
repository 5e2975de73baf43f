import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a presented MAC text is exactly the expected one, in time that does not depend on where
 * they differ. The texts are compared, not their decoded bytes: base64url spells the same bytes
 * in more than one way (the last character of a 32-byte MAC carries 2 unused bits, so four
 * characters decode alike), and a signed URL or cursor altered in such a character must be
 * refused like any other alteration.
 */
export function sameMacText(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
