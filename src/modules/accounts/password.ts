import argon2 from 'argon2';

/** argon2id with OWASP-recommended parameters (19 MiB, 2 passes). */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, OPTIONS);

/** A constant hash to verify against when the account does not exist, so timing does not reveal it. */
let dummy: Promise<string> | undefined;
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  const target = hash ?? (await (dummy ??= hashPassword('not-a-real-password')));
  try {
    const ok = await argon2.verify(target, password);
    return ok && hash !== null;
  } catch {
    return false;
  }
}
