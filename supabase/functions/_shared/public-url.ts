// Server-side request forgery: deployed, the platform sends webhooks (and seamless wallet calls)
// only to https URLs whose host resolves to public addresses, checked when the URL is set and again
// before each send (a name can change what it resolves to). A setting (ALLOW_PRIVATE_URLS) turns the
// rule off for local runs, so an operator can point an endpoint at http://127.0.0.1:... on a laptop.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Why a URL may not be called, or null when it may. */
export type UrlRefusal = 'not_https' | 'not_public' | 'unresolvable' | null;

const PRIVATE_V4: [number, number][] = [
  [0x00000000, 8], [0x0a000000, 8], [0x64400000, 10], [0x7f000000, 8], [0xa9fe0000, 16], [0xac100000, 12],
  [0xc0000000, 24], [0xc0a80000, 16], [0xc6120000, 15], [0xe0000000, 4], [0xf0000000, 4],
];

function v4Number(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** Loopback, private, link-local, shared, multicast, reserved or unspecified: not a public address. */
export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const n = v4Number(address);
    return PRIVATE_V4.some(([base, bits]) => (n >>> (32 - bits)) === (base >>> (32 - bits)));
  }
  const v6 = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (mapped) return isPrivateAddress(mapped[1]);
  return v6 === '::' || v6 === '::1' || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6) || /^ff/.test(v6);
}

export async function urlRefusal(url: string, allowPrivate: boolean): Promise<UrlRefusal> {
  if (allowPrivate) return null;
  const parsed = URL.parse(url);
  if (parsed?.protocol !== 'https:') return 'not_https';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return 'unresolvable';
  }
  return addresses.length === 0 || addresses.some(isPrivateAddress) ? 'not_public' : null;
}
