import { randomBytes, timingSafeEqual } from 'node:crypto';

/** Name of the cookie the page gets once it was opened with the right `?token=`. */
export const TOKEN_COOKIE = 'aibuddy_token';

/** A fresh random access token (32 bytes, hex): printed once at start, required by every request. */
export function createAccessToken(): string {
  return randomBytes(32).toString('hex');
}

/** Constant-time comparison, so the token cannot be guessed byte by byte from response times. */
export function tokenMatches(expected: string, given: string | undefined | null): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** The token a request carries: `Authorization: Bearer`, the `token` query parameter, or the cookie. */
export function requestToken(
  request: { header(name: string): string | undefined; query(name: string): string | undefined },
  cookie: string | undefined,
): string | undefined {
  const auth = request.header('authorization');
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length).trim();
  return request.query('token') ?? cookie;
}
