// Server-side request forgery: deployed (ALLOW_PRIVATE_URLS unset), webhook and wallet URLs must be
// https and resolve to public addresses, when set and again before each send.
import { describe, expect, it } from 'vitest';
import { isPrivateAddress, urlRefusal } from '../../supabase/functions/_shared/public-url.ts';
import { connect } from '../helpers/db.ts';
import { newOperator, sessionsHandler } from '../sessions/helpers.ts';

const sql = connect();
const { handle } = await sessionsHandler({ config: { allowPrivateUrls: false } });

describe('callable URLs', () => {
  it('tells private, loopback, link-local, shared and reserved addresses from public ones', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
      '0.0.0.0', '224.0.0.1', '255.255.255.255', '198.18.0.1', '::1', '::', 'fc00::1', 'fd12::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('refuses http, private hosts (by address or by name) and names that do not resolve; allows them all locally', async () => {
    expect(await urlRefusal('http://93.184.216.34/', false)).toBe('not_https');
    expect(await urlRefusal('https://127.0.0.1:8443/hook', false)).toBe('not_public');
    expect(await urlRefusal('https://[::1]/hook', false)).toBe('not_public');
    expect(await urlRefusal('https://localhost/hook', false)).toBe('not_public');
    expect(await urlRefusal('https://nothing.invalid/hook', false)).toBe('unresolvable');
    expect(await urlRefusal('https://93.184.216.34/hook', false)).toBeNull();
    expect(await urlRefusal('http://127.0.0.1:9/hook', true)).toBeNull();
  });

  it('refuses such a URL for a webhook endpoint and a seamless wallet, naming the field', async () => {
    const operator = await newOperator(sql, 'ssrf');
    const post = (path: string, method: string, body: object) => handle(new Request(`http://api.test/v3${path}`, {
      method, headers: { authorization: `Bearer ${operator.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    }));
    for (const [path, method] of [['/webhook-endpoints', 'POST'], ['/wallet-settings', 'PUT']] as const) {
      const response = await post(path, method, { url: 'https://169.254.169.254/latest/meta-data', ...(method === 'PUT' ? { mode: 'seamless' } : {}) });
      expect(response.status, path).toBe(400);
      expect((await response.json()).errors).toEqual([{ pointer: '#/url', code: 'url_not_public', detail: expect.any(String) }]);
    }
  });
});
