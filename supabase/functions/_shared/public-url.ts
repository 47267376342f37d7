// Server-side request forgery: deployed, the platform sends webhooks (and seamless wallet calls)
// only to https URLs whose host resolves to public addresses, checked when the URL is set and again
// at each send (a name can change what it resolves to). At a send the name is resolved once, and the
// connection goes to the addresses that were checked (pinned-post.ts), so a name that answers a
// public address to the check and a private one a moment later never reaches inside. A setting
// (ALLOW_PRIVATE_URLS) turns the rule off for local runs, so an operator can point an endpoint at
// http://127.0.0.1:... on a laptop; the name is still resolved once and pinned.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why a URL may not be called. */
export type UrlRefusal = 'not_https' | 'not_public' | 'unresolvable';

/** A host name's addresses, as the system's resolver answers it unless a test answers made-up names. */
export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** How the platform reaches a URL an operator chose. */
export interface OutboundOptions {
  /** ALLOW_PRIVATE_URLS: http and private addresses too (local runs only). */
  allowPrivateUrls: boolean;
  resolve?: Resolver;
  /** Certificates trusted instead of the system's: a test's own HTTPS server. */
  ca?: string[];
}

// Global unicast: every public IPv6 address is in it; what lies outside is loopback, mapped,
// IPv4-compatible, translated, local or multicast.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
// ipaddr.js reads "::a.b.c.d", the way inet_ntop writes an IPv4-compatible address (::/96), as
// IPv4-mapped; it is neither mapped nor public.
const IPV4_COMPATIBLE = /^::\d+\.\d+\.\d+\.\d+$/;

/**
 * The address a connection would reach (an IPv4-mapped IPv6 address is its IPv4 address), or null
 * when that is not a public unicast address: every block of IANA's special-purpose registries is
 * refused, and so are the translation prefixes (NAT64, 6to4, Teredo) that carry an IPv4 address
 * inside, whichever IPv4 address that is.
 */
function publicAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (IPV4_COMPATIBLE.test(text)) return null;
  const address = parsedAddress(text);
  if (address?.kind() === 'ipv6' && !address.match(GLOBAL_UNICAST_V6)) return null;
  return address?.range() === 'unicast' ? address : null;
}

function parsedAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    return ipaddr.process(text);
  } catch {
    return null;
  }
}

/** Not an address the platform may call: anything but a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  return publicAddress(address) === null;
}

/** A URL the platform may call, and the addresses its host resolved to, the ones to connect to. */
export interface CallableTarget {
  url: URL;
  addresses: { address: string; family: 4 | 6 }[];
}

/** Resolves the URL's host once and judges every address: the target to connect to, or why not. */
export async function callableTarget(url: string, options: OutboundOptions): Promise<CallableTarget | { refusal: UrlRefusal }> {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== 'https:' && !(options.allowPrivateUrls && parsed.protocol === 'http:'))) return { refusal: 'not_https' };
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let resolved: string[];
  try {
    resolved = isIP(host) ? [host] : await (options.resolve ?? systemResolver)(host);
  } catch {
    return { refusal: 'unresolvable' };
  }
  if (resolved.length === 0) return { refusal: 'unresolvable' };
  const addresses = [];
  for (const text of resolved) {
    const address = options.allowPrivateUrls ? parsedAddress(text) : publicAddress(text);
    if (!address) return { refusal: 'not_public' };
    addresses.push({ address: address.toString(), family: address.kind() === 'ipv4' ? 4 as const : 6 as const });
  }
  return { url: parsed, addresses };
}

/** Why the platform may not call `url`, or null when it may; with the rule off, never a refusal. */
export async function urlRefusal(url: string, options: OutboundOptions): Promise<UrlRefusal | null> {
  if (options.allowPrivateUrls) return null;
  const target = await callableTarget(url, options);
  return 'refusal' in target ? target.refusal : null;
}
