// A POST to the addresses a URL's host was checked at (public-url.ts), never to what the name
// resolves to a moment later: node:http(s) `request` with a `lookup` that answers those addresses,
// so the Host header, TLS SNI and the certificate check still use the name. Deno's node:https
// honours `lookup` as Node does; fetch has no such hook in either. An answer is read up to
// MAX_ANSWER_BYTES and no further: an operator's server cannot fill the platform's memory.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CallableTarget } from './public-url.ts';
import { USER_AGENT } from './user-agent.ts';

/** The most read of an answer's body: a wallet's JSON answer is a few hundred bytes. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export interface PinnedPost {
  headers: Record<string, string>;
  body: string;
  /** Aborted when the time for the answer is up. */
  signal: AbortSignal;
  /** Read the answer's body (within the timeout and the cap); else the connection closes at its headers. */
  keepBody: boolean;
  ca?: string[];
}

export type PinnedAnswer =
  | { status: number; headers: Headers; text: string | null }
  | { failure: 'timeout' | 'unreachable' | 'too_large' };

/** A POST to the target's checked addresses, redirects not followed, over when `signal` aborts. */
export function pinnedPost(target: CallableTarget, post: PinnedPost): Promise<PinnedAnswer> {
  const { url, addresses } = target;
  const lookup = ((_host, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  }) as LookupFunction;
  const body = new TextEncoder().encode(post.body);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: PinnedAnswer) => {
      if (settled) return;
      settled = true;
      post.signal.removeEventListener('abort', timedOut);
      request.destroy();
      resolve(answer);
    };
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'POST', headers: { 'user-agent': USER_AGENT, ...post.headers, 'content-length': String(body.byteLength) }, lookup, ca: post.ca,
      // A connection of its own: a pooled one would outlive the check it was made under.
      agent: false,
    }, (response) => {
      response.on('error', () => finish({ failure: 'unreachable' }));
      if (!post.keepBody) return finish(answered(response, null));
      const chunks: Uint8Array[] = [];
      let read = 0;
      response.on('data', (chunk: Uint8Array) => {
        read += chunk.byteLength;
        if (read > MAX_ANSWER_BYTES) finish({ failure: 'too_large' });
        else chunks.push(chunk);
      });
      response.on('end', () => finish(answered(response, new TextDecoder().decode(concat(chunks, read)))));
    });
    const timedOut = () => finish({ failure: 'timeout' });
    post.signal.addEventListener('abort', timedOut);
    request.on('error', () => finish({ failure: 'unreachable' }));
    if (post.signal.aborted) timedOut();
    else request.end(body);
  });
}

function answered(response: IncomingMessage, text: string | null): PinnedAnswer {
  const headers = new Headers();
  for (let i = 0; i < response.rawHeaders.length; i += 2) {
    try {
      headers.append(response.rawHeaders[i], response.rawHeaders[i + 1]);
    } catch {
      // A header HTTP allows and the Fetch API does not: none the platform reads.
    }
  }
  return { status: response.statusCode!, headers, text };
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const all = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}
