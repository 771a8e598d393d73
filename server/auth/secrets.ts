import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** An opaque bearer token: 32 random bytes, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A six-digit one-time code. */
export function newOtp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** SHA-256 of a secret; tokens and codes are stored only this way. */
export function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Compares a secret with a stored digest in constant time. */
export function matchesDigest(secret: string, stored: string): boolean {
  const a = Buffer.from(digest(secret), 'hex');
  const b = Buffer.from(stored, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
