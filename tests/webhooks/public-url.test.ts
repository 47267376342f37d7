// Server-side request forgery: deployed (ALLOW_PRIVATE_URLS unset), webhook and wallet URLs must be
// https and resolve to public addresses only, when set and again at each send. Every block of IANA's
// IPv4 and IPv6 special-purpose registries is refused, in each form an attacker can write it.
import { describe, expect, it } from 'vitest';
import { callableTarget, isPrivateAddress, urlRefusal } from '../../supabase/functions/_shared/public-url.ts';
import { answering } from '../helpers/answering-resolver.ts';
import { connect } from '../helpers/db.ts';
import { issueKey, newOperator, sessionsHandler } from '../helpers/api.ts';

const sql = connect();
const { handle } = await sessionsHandler({ config: { allowPrivateUrls: false } });
const deployed = { allowPrivateUrls: false };

const SPECIAL_V4 = [
  '0.0.0.0', '0.1.2.3', // "this network" 0/8
  '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.255', '192.168.0.1', '192.168.255.255', // private
  '100.64.0.1', '100.127.255.254', // shared address space (CGNAT)
  '127.0.0.1', '127.255.255.254', // loopback
  '169.254.169.254', '169.254.0.1', // link-local, cloud metadata
  '192.0.0.1', '192.0.0.9', '192.0.0.170', // IETF protocol assignments 192.0.0.0/24
  '192.0.2.1', '198.51.100.1', '203.0.113.1', // documentation
  '192.31.196.1', '192.175.48.1', // AS112
  '192.52.193.1', // AMT
  '192.88.99.1', // 6to4 relay anycast
  '198.18.0.1', '198.19.255.255', // benchmarking
  '224.0.0.1', '239.255.255.250', // multicast
  '240.0.0.1', '254.255.255.254', // reserved
  '255.255.255.255', // limited broadcast
];
const SPECIAL_V6 = [
  '::', '::1', // unspecified, loopback
  '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', // IPv4-mapped, judged by the IPv4 address
  '::127.0.0.1', '::7f00:1', '::8.8.8.8', '::93.184.216.34', // IPv4-compatible ::/96, deprecated, however many digits each part
  '::ffff:0:7f00:1', // IPv4-translated
  '64:ff9b::a00:1', '64:ff9b::7f00:1', '64:ff9b::808:808', '64:ff9b:1::a00:1', // NAT64, whichever IPv4 address inside
  '100::1', '100:0:0:1::1', // discard-only, dummy prefix
  '2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
  '2001:1::1', '2001:2::1', '2001:3::1', '2001:4:112::1', '2001:10::1', '2001:20::1', '2001:30::1', // IETF protocol assignments 2001::/23
  '2001:db8::1', '3fff::1', // documentation
  '2002:7f00:1::', '2002:a00:1::1', '2002:808:808::1', // 6to4, whichever IPv4 address inside
  '2620:4f:8000::1', // AS112
  '5f00::1', // segment routing
  'fc00::1', 'fd12:3456::1', // unique local
  'fe80::1', 'febf::1', // link-local
  'fec0::1', // site-local, deprecated
  'ff02::1', 'ff05::1:3', 'ff0e::1', // multicast
];
const PUBLIC = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '11.0.0.1', '172.32.0.1', '100.128.0.1', '198.20.0.1', '192.0.3.1',
  '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8',
  '2606:4700::8.8.8.8', // a public IPv6 address written with a dotted tail is not IPv4-compatible
];

// The forms a URL can carry a private address in; WHATWG URL rewrites each before it is judged.
const ATTACKER_URLS = [
  'https://127.0.0.1:8443/hook', 'https://[::1]/hook', 'https://[::]/', 'https://localhost/hook',
  'https://[::ffff:127.0.0.1]/', 'https://[::ffff:7f00:1]/', 'https://[0:0:0:0:0:ffff:127.0.0.1]/', 'https://[::ffff:a9fe:a9fe]/',
  'https://[::127.0.0.1]/', 'https://[64:ff9b::a00:1]/', 'https://[64:ff9b::10.0.0.1]/', 'https://[64:ff9b:1::a00:1]/',
  'https://[2002:7f00:1::]/', 'https://[2001::7f00:1]/', 'https://[fe80::1]/', 'https://[fd00::1]/',
  'https://2130706433/', 'https://0x7f.1/', 'https://0x7f000001/', 'https://0177.0.0.1/', 'https://127.1/', 'https://0/',
  'https://169.254.169.254/latest/meta-data', 'https://0xa9.0xfe.0xa9.0xfe/', 'https://2852039166/',
];

describe('callable URLs', () => {
  it('refuses every special-purpose IPv4 and IPv6 block, and takes public unicast addresses', () => {
    for (const address of [...SPECIAL_V4, ...SPECIAL_V6]) expect(isPrivateAddress(address), address).toBe(true);
    for (const address of PUBLIC) expect(isPrivateAddress(address), address).toBe(false);
  });

  it('refuses a private address however the URL writes it: mapped, compatible, translated, decimal, octal or hex', async () => {
    for (const url of ATTACKER_URLS) expect(await urlRefusal(url, deployed), url).toBe('not_public');
    for (const url of ['https://93.184.216.34/hook', 'https://8.8.8.8:8443/', 'https://[2606:4700:4700::1111]/hook', 'https://[::ffff:8.8.8.8]/']) {
      expect(await urlRefusal(url, deployed), url).toBeNull();
    }
  });

  it('refuses http and names that do not resolve; allows them all locally', async () => {
    expect(await urlRefusal('http://93.184.216.34/', deployed)).toBe('not_https');
    expect(await urlRefusal('https://nothing.invalid/hook', deployed)).toBe('unresolvable');
    expect(await urlRefusal('https://empty.test/', { ...deployed, resolve: answering([]) })).toBe('unresolvable');
    expect(await urlRefusal('http://127.0.0.1:9/hook', { allowPrivateUrls: true })).toBeNull();
  });

  it('refuses a name that resolves to a public and a private address, whichever comes first', async () => {
    for (const addresses of [['93.184.216.34', '10.0.0.1'], ['2606:4700::1111', '::ffff:127.0.0.1'], ['fd00::1', '8.8.8.8']]) {
      const resolve = answering(addresses);
      expect(await urlRefusal('https://mixed.test/hook', { ...deployed, resolve }), addresses.join()).toBe('not_public');
      expect(resolve.asked).toEqual(['mixed.test']);
    }
    expect(await urlRefusal('https://public.test/hook', { ...deployed, resolve: answering(['93.184.216.34', '2606:4700::1111']) })).toBeNull();
  });
});

describe('what a send connects to', () => {
  it('takes http only where private URLs are allowed, and no other scheme even there', async () => {
    const local = { allowPrivateUrls: true };
    expect(await callableTarget('http://127.0.0.1:9/hook', local)).toMatchObject({ addresses: [{ address: '127.0.0.1', family: 4 }] });
    for (const url of ['ftp://127.0.0.1/hook', 'ws://127.0.0.1/hook', 'file:///etc/passwd', 'data:,x', 'javascript:alert(1)', 'not a url']) {
      expect(await callableTarget(url, local), url).toEqual({ refusal: 'not_https' });
    }
  });

  it('the addresses judged, each with its family: an IPv4-mapped address as its IPv4 address, in the order resolved', async () => {
    expect(await callableTarget('https://[2606:4700:4700::1111]/hook', deployed))
      .toMatchObject({ addresses: [{ address: '2606:4700:4700::1111', family: 6 }] });
    expect(await callableTarget('https://[::ffff:8.8.8.8]/hook', deployed)).toMatchObject({ addresses: [{ address: '8.8.8.8', family: 4 }] });
    const target = await callableTarget('https://dual.test/hook', { ...deployed, resolve: answering(['2606:4700::1111', '93.184.216.34']) });
    expect(target).toEqual({
      url: new URL('https://dual.test/hook'),
      addresses: [{ address: '2606:4700::1111', family: 6 }, { address: '93.184.216.34', family: 4 }],
    });
    expect(await callableTarget('http://[::1]:9/hook', { allowPrivateUrls: true })).toMatchObject({ addresses: [{ address: '::1', family: 6 }] });
  });
});

describe('the API refuses a private URL wherever one is set or used', () => {
  const PRIVATE_IPV6_URLS = ['https://[::ffff:7f00:1]/hook', 'https://[::127.0.0.1]/hook', 'https://[64:ff9b::a00:1]/hook', 'https://[2002:7f00:1::]/hook'];
  const call = async (key: string, method: string, path: string, body?: object) => {
    const response = await handle(new Request(`http://api.test/v3${path}`, {
      method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body),
    }));
    return { status: response.status, body: await response.json() };
  };
  const refused = () => ({
    status: 400,
    body: expect.objectContaining({
      code: 'validation_failed', detail: 'The request body has invalid fields; see `errors`.',
      errors: [{ pointer: '#/url', code: 'url_not_public', detail: 'url must resolve to public addresses only.' }],
    }),
  });

  it('on a webhook endpoint created, and on a seamless wallet set', async () => {
    const operator = await newOperator(sql, 'ssrf');
    for (const url of ['https://169.254.169.254/latest/meta-data', ...PRIVATE_IPV6_URLS]) {
      expect(await call(operator.key, 'POST', '/webhook-endpoints', { url }), url).toEqual(refused());
      expect(await call(operator.key, 'PUT', '/wallet-settings', { mode: 'seamless', url }), url).toEqual(refused());
    }
    expect((await call(operator.key, 'GET', '/webhook-endpoints')).body.data).toEqual([]);
    expect((await call(operator.key, 'GET', '/wallet-settings')).body).toMatchObject({ mode: 'transfer' });
  });

  it('on a webhook endpoint changed, with the same problem as on create, leaving the endpoint as it was', async () => {
    const operator = await newOperator(sql, 'ssrf-patch');
    const created = await call(operator.key, 'POST', '/webhook-endpoints', { url: 'https://93.184.216.34/hook' });
    expect(created.status).toBe(201);
    for (const url of PRIVATE_IPV6_URLS) {
      const patched = await call(operator.key, 'PATCH', `/webhook-endpoints/${created.body.id}`, { url, description: 'moved' });
      const onCreate = await call(operator.key, 'POST', '/webhook-endpoints', { url });
      expect(patched, url).toEqual(refused());
      expect(patched.body.errors).toEqual(onCreate.body.errors);
    }
    const { secret: _, ...unchanged } = created.body;
    expect((await call(operator.key, 'GET', `/webhook-endpoints/${created.body.id}`)).body).toEqual(unchanged);
  });

  it('on the sandbox wallet check of a wallet url set before the rule', async () => {
    const operator = await newOperator(sql, 'ssrf-check');
    const testKey = (await issueKey(sql, operator.account, 'Sandbox', false)).key;
    for (const url of PRIVATE_IPV6_URLS) {
      await sql`select * from private.change_wallet_settings(${operator.account.id}, false, 'seamless', ${url}, false)`;
      expect(await call(testKey, 'POST', '/sandbox/wallet-checks', { player_id: 'player-1', currency: 'EUR' }), url).toEqual(refused());
    }
  });
});
