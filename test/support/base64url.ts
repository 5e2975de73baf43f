const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * The other base64url spellings of `text` that decode to the same bytes: its last character with
 * the two low bits changed (three of them). For a 32-byte MAC (43 characters) those bits are unused,
 * so a verifier that compares decoded bytes accepts all four spellings.
 */
export function sameBytesSpellings(text: string): string[] {
  const last = ALPHABET.indexOf(text.at(-1)!);
  return [1, 2, 3].map((x) => `${text.slice(0, -1)}${ALPHABET[last ^ x]}`);
}
