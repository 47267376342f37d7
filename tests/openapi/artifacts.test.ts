// What is generated from the OpenAPI description is committed as generated: the SDK's types and
// the Postman collection. Change the document, then `npm run openapi:types` and `npm run openapi:postman`.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  apiTypesFiles,
  generateApiTypes,
  generatePostmanCollection,
  postmanFile,
} from '../../scripts/openapi-artifacts.ts';
import { document } from './contract.ts';

interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: { method: string; url: { path: string[] } };
}
const requests = (items: PostmanItem[]): PostmanItem[] => items.flatMap((i) => (i.item ? requests(i.item) : [i]));

describe('generated from the OpenAPI document', () => {
  it.each(apiTypesFiles)('%s is what openapi-typescript generates (run `npm run openapi:types`)', async (file) => {
    expect(await readFile(file, 'utf8')).toBe(await generateApiTypes());
  });

  it('openapi/postman.json is what openapi-to-postmanv2 generates (run `npm run openapi:postman`)', async () => {
    const generated = await generatePostmanCollection();
    expect(await readFile(postmanFile, 'utf8')).toBe(generated);
    // Generating is deterministic, or the comparison above would fail at random.
    expect(await generatePostmanCollection()).toBe(generated);
  });

  it('the Postman collection has a request for every operation, under {{baseUrl}}, with bearer auth', async () => {
    const collection = JSON.parse(await readFile(postmanFile, 'utf8'));
    const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap((
      [path, item],
    ) =>
      Object.keys(item).map((method) =>
        `${method.toUpperCase()} /${
          path.split('/').filter(Boolean).map((s) => s.replace(/^\{(.+)\}$/, ':$1')).join('/')
        }`
      )
    );
    const found = requests(collection.item).map((r) => `${r.request!.method} /${r.request!.url.path.join('/')}`);
    expect(found.sort()).toEqual(operations.sort());
    expect(collection.variable.map((v: { key: string }) => v.key)).toEqual([
      'baseUrl', 'bearerToken', 'providerKey', 'gameId', 'playerId', 'restrictedPlayerId', 'webhookUrl', 'resetSandbox',
    ]);
    expect(collection.auth).toMatchObject({ type: 'bearer' });
  });
});
