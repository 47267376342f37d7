// Outgoing calls under real Deno, as the functions make them: node:https's `lookup` pins the
// connection there as under Node (dns-rebinding.test.ts), and an answer stops being read at 64 KiB
// (answer-size.test.ts). One Deno run makes every post and reports each answer.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deno, denoEnv, runAsFunction } from '../../scripts/lib/deno-function.ts';
import { USER_AGENT } from '../../supabase/functions/_shared/user-agent.ts';
import type { DenoAnswer, DenoPost } from '../helpers/post-signed-in-deno.ts';
import { type FloodServer, floodServer, type NamedServer, namedHttpsServer, signedPost } from '../helpers/operator-servers.ts';

const NAME = 'wallet.operator.test';
const IN_DENO = fileURLToPath(new URL('../helpers/post-signed-in-deno.ts', import.meta.url));
const WANTED = 256 * 1024 * 1024;
let named: NamedServer;
let flood: FloodServer;

beforeAll(async () => {
  [named, flood] = await Promise.all([namedHttpsServer(NAME), floodServer(WANTED)]);
});
afterAll(() => Promise.all([named.close(), flood.close()]));

it('pins the connection to the address checked and reads at most 64 KiB, under Deno', async () => {
  const to = (name: string, answers: string[][]): DenoPost =>
    ({ post: signedPost(`https://${name}:${named.port}/hook`, { keepBody: true, allowPrivateUrls: true, ca: [named.cert] }), answers });
  const posts: DenoPost[] = [
    to(NAME, [['127.0.0.1']]),
    to('other.operator.test', [['127.0.0.1']]),
    to(NAME, [['127.0.0.2'], ['127.0.0.1']]),
    { post: signedPost(`${flood.base}/wallet`, { keepBody: true, allowPrivateUrls: true }), answers: [] },
    { post: signedPost(`${flood.base}/hook`, { allowPrivateUrls: true }), answers: [] },
  ];
  const { stdout } = await promisify(execFile)(deno, [...runAsFunction('deliver'), IN_DENO, JSON.stringify(posts)], { env: denoEnv() });
  const [pinned, wrongName, rebound, wallet, hook] = JSON.parse(stdout) as DenoAnswer[];
  expect(pinned.asked).toEqual([NAME]);
  expect(pinned.answer).toMatchObject({ status: 200 });
  // The receiver is told the platform and its version, as under Node (signed-post.test.ts).
  expect(JSON.parse((pinned.answer as { text: string }).text)).toEqual({ host: `${NAME}:${named.port}`, sni: NAME, user_agent: USER_AGENT });
  expect(wrongName.answer).toEqual({ failure: 'unreachable' });
  expect(rebound).toEqual({ answer: { failure: 'unreachable' }, asked: [NAME] });
  // The pinned post and the one refused for its certificate: the rebound one never arrived.
  expect(named.connections()).toBe(2);
  expect(wallet.answer).toEqual({ failure: 'too_large' });
  expect(hook.answer).toEqual({ status: 200, text: null });
  expect(await flood.written('/wallet')).toBeLessThan(WANTED / 8);
  expect(await flood.written('/hook')).toBeLessThan(WANTED / 8);
});
