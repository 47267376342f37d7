// What is generated from the OpenAPI description (supabase/functions/v3/openapi.json, the source
// of truth, deployed with the function): the SDK's types and the Postman collection. The scripts
// write them; tests regenerate them in memory and fail when the committed files drift.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { convertV2 } from 'openapi-to-postmanv2';
import openapiTS, { astToString } from 'openapi-typescript';
import { paths } from './lib/database.ts';
import { flow, flowVariables, type Step } from './postman-flow.ts';

export const openApiFile = `${paths.root}supabase/functions/v3/openapi.json`;
// The same types twice: the SDK's, and the function's (which deploys only its own folder).
export const apiTypesFiles = [`${paths.root}sdks/typescript/src/api.types.ts`, `${paths.root}supabase/functions/_shared/api.types.ts`];
export const postmanFile = `${paths.root}openapi/postman.json`;

const API_TYPES_HEADER =
  `// Generated from supabase/functions/v3/openapi.json by openapi-typescript (\`npm run openapi:types\`).
// Do not edit: change the OpenAPI document and regenerate.
`;

export async function generateApiTypes(file = openApiFile): Promise<string> {
  const ast = await openapiTS(pathToFileURL(file));
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

interface PostmanParameter {
  key: string;
  value?: string;
  disabled?: boolean;
}
interface PostmanRequestItem {
  name: string;
  request: {
    method: string;
    url: { path: string[]; query?: PostmanParameter[]; variable?: PostmanParameter[] };
    header?: PostmanParameter[];
    body?: { mode?: string; raw?: string };
    auth?: unknown;
  };
  event?: unknown[];
}
interface PostmanFolder {
  name: string;
  description?: unknown;
  item: (PostmanFolder | PostmanRequestItem)[];
}
interface PostmanCollection {
  item: PostmanFolder[];
  variable?: { key: string; value: string; type?: string; description?: string }[];
}
interface Operation {
  operationId: string;
  responses: Record<string, unknown>;
}

const script = (type: 'prerequest' | 'test', exec: string[]) => ({ listen: type, script: { type: 'text/javascript', exec } });

/** The request as the run sends it: its step's values, optional parameters off, the tests it runs. */
function asStep(item: PostmanRequestItem, operation: Operation, step: Step): PostmanRequestItem {
  const { request } = item;
  const expected = step.expect ?? Object.keys(operation.responses).filter((s) => /^2\d\d$/.test(s)).map(Number);
  for (const q of request.url.query ?? []) {
    const value = step.query?.[q.key];
    Object.assign(q, value === undefined ? { disabled: true } : { value, disabled: false });
  }
  for (const v of request.url.variable ?? []) {
    const value = step.path?.[v.key];
    if (value === undefined) throw new Error(`${operation.operationId}: the Postman flow gives no value for :${v.key}`);
    v.value = value;
  }
  // Optional headers (Idempotency-Key, If-None-Match) stay, off: their examples would replay or match.
  for (const h of request.header ?? []) if (h.disabled === false) h.disabled = true;
  if (step.body !== undefined) request.body = { ...request.body, mode: 'raw', raw: JSON.stringify(step.body, null, 2) };
  if (step.providerKey) request.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{providerKey}}', type: 'string' }] };
  const tests = [
    'var body = {};',
    'try { body = pm.response.json(); } catch (e) { /* no JSON body */ }',
    `pm.test("answers ${expected.join(' or ')}", function () { pm.expect(pm.response.code).to.be.oneOf(${JSON.stringify(expected)}); });`,
    ...Object.entries(step.capture ?? {}).map(([name, expression]) =>
      `pm.test("gives ${name}", function () { var value = ${expression}; pm.expect(value).to.be.a("string").and.not.empty; pm.collectionVariables.set(${JSON.stringify(name)}, value); });`
    ),
    ...(step.tests ?? []),
  ];
  return { ...item, event: [...(step.prerequest ? [script('prerequest', step.prerequest)] : []), script('test', tests)] };
}

/** The converter's folders (one per tag) rearranged into the run of postman-flow.ts. */
function inRunOrder(collection: PostmanCollection, document: { paths: Record<string, Record<string, Operation>> }): PostmanFolder[] {
  const byOperation = new Map<string, { item: PostmanRequestItem; operation: Operation }>();
  const key = (method: string, path: string[]) => `${method.toUpperCase()} /${path.join('/')}`;
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const segments = path.split('/').filter(Boolean).map((s) => s.replace(/^\{(.+)\}$/, ':$1'));
      operations.set(key(method, segments), operation);
    }
  }
  const visit = (items: (PostmanFolder | PostmanRequestItem)[]): void => {
    for (const item of items) {
      if ('item' in item) visit(item.item);
      else {
        const operation = operations.get(key(item.request.method, item.request.url.path));
        if (!operation) throw new Error(`no operation for the Postman request ${item.name}`);
        byOperation.set(operation.operationId, { item, operation });
      }
    }
  };
  visit(collection.item);
  const folders = flow.map(({ folder, description, steps }) => ({
    name: folder,
    description,
    item: Object.entries(steps).map(([operationId, step]) => {
      const found = byOperation.get(operationId);
      if (!found) throw new Error(`the Postman flow names ${operationId}, which the document does not have`);
      byOperation.delete(operationId);
      return asStep(found.item, found.operation, step);
    }),
  }));
  if (byOperation.size) throw new Error(`the Postman flow (scripts/postman-flow.ts) has no step for ${[...byOperation.keys()].join(', ')}`);
  return folders;
}

export async function generatePostmanCollection(file = openApiFile): Promise<string> {
  const data = await readFile(file, 'utf8');
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
  // Run top to bottom with a test key, each request passes its tests and the sandbox stays usable.
  collection.item = inRunOrder(collection, JSON.parse(data));
  // The collection's auth reads {{bearerToken}}; declare it so Postman shows where the key goes.
  collection.variable = [
    ...(collection.variable ?? []),
    ...flowVariables.map((v) => ({ ...v, type: 'string' })),
  ];
  return `${JSON.stringify(collection, null, 2)}\n`;
}
