// Reading a JSON request body safely: JSON media type only, a byte limit (on a declared length
// before reading and on the body read; on a body of unknown length while reading it), strict UTF-8.
import { Problem } from './problem.ts';

// Not streaming, so one decoder serves every request.
const utf8 = new TextDecoder('utf-8', { fatal: true });

function tooLarge(maxBytes: number): Problem {
  return new Problem('payload_too_large', `The request body must not exceed ${maxBytes} bytes.`);
}

function isJsonMediaType(contentType: string | null): boolean {
  if (!contentType) return false;
  const [type, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  return type === 'application/json'
    && parameters.every((p) => !p.startsWith('charset=') || /^charset="?utf-8"?$/.test(p));
}

async function readAtMost(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The parsed body: 415 unless JSON, 413 over `maxBytes`, 400 unless well-formed UTF-8 JSON. */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  if (!isJsonMediaType(request.headers.get('content-type'))) {
    throw new Problem('unsupported_media_type', 'Send the body as `Content-Type: application/json` (UTF-8).', {
      headers: { 'accept-post': 'application/json' },
    });
  }
  const declared = request.headers.get('content-length');
  if (Number(declared ?? 0) > maxBytes) throw tooLarge(maxBytes);
  // A length declared within the limit bounds what the server reads (HTTP/1.1 framing ends the body
  // there; RFC 9113 8.1.1 makes an HTTP/2 request that sends more malformed), so the body is taken
  // in one read, which spares the per-chunk work; a body of unknown length is still read chunk by
  // chunk, counted as it comes. The size is checked again for a Request built in-process, whose body
  // nothing holds to its header.
  const bytes = declared !== null && /^\d+$/.test(declared)
    ? new Uint8Array(await request.arrayBuffer())
    : await readAtMost(request.body, maxBytes);
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    throw new Problem('malformed_json', 'The request body is not well-formed JSON.');
  }
}
