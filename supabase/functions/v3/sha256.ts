// Lowercase hex SHA-256 with node:crypto, which Deno and Node both provide. Synchronous: Web Crypto's
// digest runs on a worker thread, and for input this short the hand-off costs more than the hash.
import { createHash } from 'node:crypto';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
