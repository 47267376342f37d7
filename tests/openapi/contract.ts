// Checks an HTTP response against the OpenAPI description (supabase/functions/v3/openapi.json):
// the status is documented for the operation, documented headers are present and valid, and the
// body matches the media type's schema (JSON Schema 2020-12, as OpenAPI 3.1 uses, with ajv).
//
//   const response = await fetch(...);
//   expectResponseMatches('createSession', response, await response.json());
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { openApiFile } from '../../scripts/openapi-artifacts.ts';
import type { operations } from '../../sdks/typescript/src/api.types.ts';

export type OperationId = keyof operations;

type Node = Record<string, unknown>;
const DOCUMENT_ID = 'openapi.json';
export const document = JSON.parse(readFileSync(openApiFile, 'utf8')) as Node;

// Strict about keywords (a misspelt one is an error, not silently ignored); not about types, since
// the per-status refinements (allOf: [Problem, { properties: ... }]) rely on their sibling's type.
const ajv = new Ajv2020({ allErrors: true, strictSchema: true, strictTypes: false });
addFormats.default(ajv);
// The document is registered whole so that schemas keep their own #/components/schemas/... refs;
// its OpenAPI members are declared as inert keywords so the root itself compiles.
for (const member of Object.keys(document).filter((key) => !['$id', '$schema'].includes(key))) ajv.addKeyword(member);
ajv.addSchema(document, DOCUMENT_ID);

const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

function at(pointer: string): Node {
  return pointer.split('/').slice(1).reduce<Node>(
    (node, segment) => node[segment.replaceAll('~1', '/').replaceAll('~0', '~')] as Node,
    document,
  );
}

/** The object at `pointer`, following OpenAPI $refs, with the pointer where it really sits. */
function follow(pointer: string): { node: Node; pointer: string } {
  let node = at(pointer);
  while (node && typeof node.$ref === 'string') {
    pointer = node.$ref.slice(1);
    node = at(pointer);
  }
  return { node, pointer };
}

const validators = new Map<string, ValidateFunction>();
function schemaAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

function operationPointer(operationId: OperationId): string {
  for (const [path, item] of Object.entries(document.paths as Record<string, Node>)) {
    for (const [method, operation] of Object.entries(item)) {
      if ((operation as Node).operationId === operationId) return `/paths/${escape(path)}/${method}`;
    }
  }
  throw new Error(`no operation ${operationId} in the OpenAPI document`);
}

// Header values are strings; a schema typed integer (Retry-After) describes the number they spell.
function headerValue(value: string, schema: Node): unknown {
  return (schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(value)
    ? Number(value)
    : value;
}

const describeErrors = (validate: ValidateFunction) =>
  (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('; ');

/** Every way `response` (with its already-read `body`) departs from the document; empty when it matches. */
export function responseProblems(operationId: OperationId, response: Response, body: unknown): string[] {
  const operation = operationPointer(operationId);
  const responses = at(`${operation}/responses`);
  const status = String(response.status);
  const key = [status, `${status[0]}XX`, 'default'].find((candidate) => candidate in responses);
  if (!key) {
    return [`${operationId}: status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
  }
  const { node: documented, pointer } = follow(`${operation}/responses/${escape(key)}`);
  const problems: string[] = [];

  for (const name of Object.keys((documented.headers ?? {}) as Node)) {
    const header = follow(`${pointer}/headers/${escape(name)}`);
    const value = response.headers.get(name);
    if (value === null) {
      if (header.node.required) problems.push(`header ${name} is required but absent`);
      continue;
    }
    const validate = schemaAt(`${header.pointer}/schema`);
    if (!validate(headerValue(value, header.node.schema as Node))) {
      problems.push(`header ${name}: ${JSON.stringify(value)} ${describeErrors(validate)}`);
    }
  }

  const content = documented.content as Node | undefined;
  if (!content) {
    if (body !== undefined && body !== null && body !== '') {
      problems.push(`${status} is documented without a body, got one`);
    }
    return problems;
  }
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (!(mediaType in content)) {
    return [
      ...problems,
      `content-type ${JSON.stringify(mediaType)} is not documented (documented: ${Object.keys(content).join(', ')})`,
    ];
  }
  const validate = schemaAt(`${pointer}/content/${escape(mediaType)}/schema`);
  if (!validate(body)) problems.push(`body: ${describeErrors(validate)}`);
  // RFC 9457: a problem's detail explains this occurrence to a person; every refusal has its sentence.
  if (mediaType === 'application/problem+json' && (body as { detail?: unknown } | null)?.detail === '') {
    problems.push('body: a problem with an empty detail');
  }
  return problems;
}

/** Fails the test unless the response matches what the document says `operationId` answers. */
export function expectResponseMatches(operationId: OperationId, response: Response, body: unknown): void {
  expect(
    responseProblems(operationId, response, body),
    `${operationId} ${response.status} against the OpenAPI document`,
  )
    .toEqual([]);
}
