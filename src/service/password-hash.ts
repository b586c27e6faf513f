import { hash, verify } from '@node-rs/argon2';

/**
 * Argon2id with OWASP's recommended cost (19 MiB, 2 passes, 1 lane): memory-hard, so guessing a
 * stolen hash costs an attacker memory as well as time. The parameters travel inside the hash, so
 * raising them later still verifies old hashes.
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The stored form of a password. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** Whether `password` is the one `stored` was made from; a malformed hash is simply no match. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/**
 * A hash of nothing anyone knows, verified when an email is unknown, so that answering "wrong email"
 * takes as long as "wrong password" and timing does not tell which addresses sign in.
 */
export function dummyHash(): Promise<string> {
  return (dummy ??= hashPassword('lookout: no such person'));
}
let dummy: Promise<string> | undefined;
