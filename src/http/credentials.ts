// Reads credentials from request headers.

/** The token of an `Authorization: Bearer <token>` header, or '' when there is none. */
export function bearerToken(authorization: string): string {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  return match ? match[1]! : '';
}
