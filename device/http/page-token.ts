// Opaque page tokens: a JSON array in base64url. Each route checks the parts it put in.

export function encodePageToken(parts: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/** The parts of a token, or undefined for anything that is not one (the caller answers 400). */
export function decodePageToken(raw: string): unknown[] | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    return Array.isArray(parsed) ? (parsed as unknown[]) : undefined;
  } catch {
    return undefined;
  }
}
