// DNS rebinding: a name that answers a public address to the URL check and a private one to the
// connection. At each send the name is resolved once and the connection goes to the addresses
// checked, keeping the name for the Host header, TLS SNI and the certificate check. Against a local
// HTTPS server whose certificate is for a made-up name only the injected resolver knows (the same
// under real Deno: outgoing-in-deno.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postSigned } from '../../supabase/functions/_shared/standard-webhooks.ts';
import { answering } from '../helpers/answering-resolver.ts';
import { type NamedServer, namedHttpsServer, signedPost } from '../helpers/operator-servers.ts';

const NAME = 'wallet.operator.test';
let server: NamedServer;

beforeAll(async () => {
  server = await namedHttpsServer(NAME);
});
afterAll(() => server.close());

/** A POST to `name` on the server's port, trusting its certificate, the answer kept. */
const postTo = (name: string, allowPrivateUrls: boolean, resolve = answering(['127.0.0.1'])) =>
  signedPost(`https://${name}:${server.port}/hook`, { keepBody: true, allowPrivateUrls, ca: [server.cert], resolve });

describe('a send connects where its check looked', () => {
  it('resolves the name once and connects to that address, with the name as Host, TLS server name and certificate name', async () => {
    // The rule is off (the server is on loopback); the name is resolved and pinned all the same.
    const resolve = answering(['127.0.0.1']);
    const answer = await postSigned(postTo(NAME, true, resolve));
    expect(answer).toMatchObject({ status: 200 });
    expect(JSON.parse((answer as { text: string }).text)).toMatchObject({ host: `${NAME}:${server.port}`, sni: NAME });
    expect(resolve.asked).toEqual([NAME]);
    // The certificate is checked against the name, not against the address connected to.
    expect(await postSigned(postTo('other.operator.test', true))).toEqual({ failure: 'unreachable' });
  });

  it('never reaches an address the name answers after the one it was checked at', async () => {
    const before = server.connections();
    // First 127.0.0.2, where nothing listens; then 127.0.0.1, where the server does.
    const rebinding = answering(['127.0.0.2'], ['127.0.0.1']);
    expect(await postSigned(postTo(NAME, true, rebinding))).toEqual({ failure: 'unreachable' });
    expect(rebinding.asked).toEqual([NAME]);
    // The rule on: private at the check is refused, whatever the name would answer next.
    const privateFirst = answering(['10.0.0.1'], ['93.184.216.34']);
    expect(await postSigned(postTo(NAME, false, privateFirst))).toEqual({ failure: 'refused', refusal: 'not_public' });
    expect(privateFirst.asked).toEqual([NAME]);
    expect(server.connections()).toBe(before);
  });
});
