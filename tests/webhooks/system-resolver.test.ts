// The system's resolver, as a send uses it when no test answers the names: its addresses are taken
// in the order it gives them (verbatim: RFC 6724's preferences, IPv6 first where the host prefers
// it), not reordered IPv4 first, so the connection tries the address the system ranks first. The
// machine's own resolver knows no name with both kinds of address, so node:dns/promises is replaced
// for one made-up name by a stand-in that orders as the real one does for each `verbatim`.
import { describe, expect, it, vi } from 'vitest';
import { callableTarget } from '../../supabase/functions/_shared/public-url.ts';

vi.mock('node:dns/promises', async (original) => {
  const real = await original<typeof import('node:dns/promises')>();
  const answered = [{ address: '2606:4700::1111', family: 6 }, { address: '93.184.216.34', family: 4 }];
  const lookup = (host: string, options: { all?: boolean; verbatim?: boolean }) => host !== 'dual.test'
    ? real.lookup(host, options as never)
    : Promise.resolve(options.verbatim === false ? [...answered].sort((a, b) => a.family - b.family) : answered);
  return { ...real, default: { ...real, lookup }, lookup };
});

describe("the system resolver's answer", () => {
  it('is kept in the order the system gives, IPv6 first when it ranks IPv6 first', async () => {
    expect(await callableTarget('https://dual.test/hook', { allowPrivateUrls: false })).toMatchObject({
      addresses: [{ address: '2606:4700::1111', family: 6 }, { address: '93.184.216.34', family: 4 }],
    });
  });
});
