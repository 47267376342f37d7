// What is generated from the OpenAPI description (supabase/functions/v3/openapi.json, the source
// of truth, deployed with the function): the SDK's types and the Postman collection. The scripts
// write them; tests regenerate them in memory and fail when the committed files drift.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { convertV2 } from 'openapi-to-postmanv2';
import openapiTS, { astToString } from 'openapi-typescript';
import { paths } from './lib/database.ts';

export const openApiFile = `${paths.root}supabase/functions/v3/openapi.json`;
// The same types twice: the SDK's, and the function's (which deploys only its own folder).
export const apiTypesFiles = [`${paths.root}sdks/typescript/src/api.types.ts`, `${paths.root}supabase/functions/_shared/api.types.ts`];
export const postmanFile = `${paths.root}openapi/postman.json`;

const API_TYPES_HEADER =
  `// Generated from supabase/functions/v3/openapi.json by openapi-typescript (\`npm run openapi:types\`).
// Do not edit: change the OpenAPI document and regenerate.
`;

export async function generateApiTypes(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(openApiFile));
  return API_TYPES_HEADER + astToString(ast);
}

/** A UUID-shaped id derived from where the item sits, so that regenerating changes nothing. */
function stableId(path: string): string {
  const hex = createHash('sha256').update(path).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

// The converter gives every folder, request and example a random id on each run.
function withStableIds(node: unknown, path = '$'): unknown {
  if (Array.isArray(node)) return node.map((item, i) => withStableIds(item, `${path}[${i}]`));
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      (key === 'id' || key === '_postman_id') && typeof value === 'string'
        ? stableId(`${path}.${key}`)
        : withStableIds(value, `${path}.${key}`),
    ]),
  );
}

interface PostmanCollection {
  variable?: { key: string; value: string; type?: string; description?: string }[];
}

export async function generatePostmanCollection(): Promise<string> {
  const data = await readFile(openApiFile, 'utf8');
  const result = await new Promise<{ result: boolean; reason?: string; output?: { data: unknown }[] }>(
    (resolve, reject) =>
      convertV2(
        { type: 'string', data },
        // Examples from the document rather than faked values: faked ones change on every run.
        { folderStrategy: 'Tags', parametersResolution: 'Example' },
        (error, converted) => (error ? reject(error) : resolve(converted as never)),
      ),
  );
  if (!result.result || !result.output?.[0]) throw new Error(`openapi-to-postmanv2 failed: ${result.reason}`);
  const collection = withStableIds(result.output[0].data) as PostmanCollection;
  // The collection's auth reads {{bearerToken}}; declare it so Postman shows where the key goes.
  collection.variable = [
    ...(collection.variable ?? []),
    { key: 'bearerToken', value: '', type: 'string', description: 'Your API key (cgs_live_... or cgs_test_...).' },
  ];
  return `${JSON.stringify(collection, null, 2)}\n`;
}
