// The OpenAPI document (openapi.json) is the contract, and it drives the validation: each request's
// query, path and header parameters and its body are checked here against the JSON Schemas the
// document gives them, and the handlers' types are generated from it (api.types.ts, `npm run
// openapi:types`). So the code cannot accept what the document refuses, nor refuse what it allows.
// What a schema cannot say (a cursor this endpoint issued, a game in the catalogue) the handlers
// check after. The validator interprets schemas rather than generating code at run time, which edge
// runtimes forbid.
import { type OutputUnit, type Schema, Validator } from '@cfworker/json-schema';
import { type FieldError, Problem } from './problem.ts';
import type { paths } from '../_shared/api.types.ts';
import document from './openapi.json' with { type: 'json' };

type Node = Record<string, unknown>;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  schema: Node;
}

export type Path = keyof paths;
/** An operation's query parameters as the document declares them. */
export type QueryOf<P extends Path, M extends Method = 'get'> = paths[P][M] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;
/** An operation's JSON request body as the document declares it. */
export type BodyOf<P extends Path, M extends Method = 'post'> = paths[P][M] extends
  { requestBody: { content: { 'application/json': infer B } } } ? B
  : never;

const unescape = (segment: string) => segment.replaceAll('~1', '/').replaceAll('~0', '~');

/** The node at a JSON Pointer in URI fragment form (`#/components/...`), starting from `root`. */
function at(pointer: string, root: Node = document as Node): Node {
  return pointer.split('/').slice(1).reduce<Node>((node, segment) => node?.[unescape(segment)] as Node, root);
}

function resolve(node: Node): Node {
  while (typeof node.$ref === 'string') node = at(node.$ref);
  return node;
}

/** The schema with the document's components beside it, so its `#/components/...` refs resolve. */
function rooted(schema: Node): Node {
  return { ...schema, components: (document as Node).components };
}

function validatorOf(root: Node): Validator {
  return new Validator(root as Schema, '2020-12', false);
}

/** The constraint an error names, found by walking its keyword location (through $refs). */
function constraintOf(root: Node, error: OutputUnit): unknown {
  let node: Node = root;
  for (const segment of error.keywordLocation.split('/').slice(1)) {
    node = segment === '$ref' ? at(node.$ref as string, root) : node?.[unescape(segment)] as Node;
  }
  return node;
}

const FORMATS: Record<string, string> = {
  'date-time': 'an RFC 3339 date-time with its offset, e.g. `2026-01-31T00:00:00Z`',
  uuid: 'a UUID',
};

/** What the failed constraint asks for, as the end of a sentence that starts with the field's name. */
function demand(keyword: string, constraint: unknown): string {
  switch (keyword) {
    case 'type':
      return `must be ${/^[aeiou]/.test(String(constraint)) ? 'an' : 'a'} ${constraint}`;
    case 'enum':
      return `must be one of ${(constraint as unknown[]).join(', ')}`;
    case 'pattern':
      return `must match \`${constraint}\``;
    case 'format':
      return `must be ${FORMATS[constraint as string] ?? `a ${constraint}`}`;
    case 'minimum':
      return `must be at least ${constraint}`;
    case 'maximum':
      return `must be at most ${constraint}`;
    case 'minLength':
      return `must be at least ${constraint} characters long`;
    case 'maxLength':
      return `must be at most ${constraint} characters long`;
    case 'minItems':
      return `must have at least ${constraint} item${constraint === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${constraint} items`;
    case 'uniqueItems':
      return 'must not name an item twice';
    default:
      return `does not satisfy \`${keyword}\``;
  }
}

// A shared field's rule in one sentence (the schema's `x-invalid`: OperatorId, CurrencyCode, ...),
// said instead of the pattern or length that failed, so every endpoint words a field's refusal alike.
const RULE_KEYWORDS = new Set(['pattern', 'minLength', 'maxLength', 'format']);

function ruleOf(root: Node, error: OutputUnit): string | undefined {
  if (!RULE_KEYWORDS.has(error.keyword)) return undefined;
  let node: Node = root;
  for (const segment of error.keywordLocation.split('/').slice(1, -1)) {
    node = segment === '$ref' ? at(node.$ref as string, root) : node?.[unescape(segment)] as Node;
  }
  return typeof node?.['x-invalid'] === 'string' ? node['x-invalid'] : undefined;
}

/** What a failure asks for: the field's rule where the document words one, else its constraint. */
function demandOf(root: Node, failure: { error: OutputUnit; constraint: unknown }): string {
  return ruleOf(root, failure.error) ?? demand(failure.error.keyword, failure.constraint);
}

// Errors that only say a subschema failed: the failure itself is reported beside them.
const WRAPPERS = new Set(['$ref', 'properties', 'additionalProperties', 'allOf', 'items', 'propertyNames']);

// A nullable field is `oneOf: [<schema>, {type: null}]`: its value is judged by <schema> alone, as
// the same field where null is not allowed, so neither the oneOf nor the null branch is reported.
const isNullable = (branches: unknown) => Array.isArray(branches) && branches.some((b) => (b as Node)?.type === 'null');
const isNullBranch = (error: OutputUnit, constraint: unknown) =>
  error.keyword === 'type' && constraint === 'null' && /\/oneOf\/\d+\/type$/.test(error.keywordLocation);

function failures(root: Node, validator: Validator, value: unknown): { error: OutputUnit; constraint: unknown }[] {
  return validator.validate(value).errors
    .filter((error) => !WRAPPERS.has(error.keyword))
    .map((error) => ({ error, constraint: constraintOf(root, error) }))
    .filter(({ error, constraint }) => !(error.keyword === 'oneOf' && isNullable(constraint)) && !isNullBranch(error, constraint));
}

/** The name a field error's sentence starts with: the member's (decoded), an item as `list[3]`. */
function nameAt(pointer: string): string {
  if (pointer === '#') return 'The body';
  const segments = pointer.split('/').slice(1).map((s) => unescape(decodeURIComponent(s)));
  const last = segments.pop()!;
  return /^\d+$/.test(last) && segments.length ? `${segments.at(-1)}[${last}]` : last;
}

function operation(path: Path, method: Method): Node {
  const found = ((document as Node).paths as Record<string, Node>)[path]?.[method] as Node | undefined;
  if (!found) throw new Error(`the OpenAPI document has no ${method.toUpperCase()} ${path}`);
  return found;
}

function parameters(path: Path, method: Method, location: Parameter['in']): Map<string, Parameter & { root: Node; validator: Validator }> {
  const declared = ((operation(path, method).parameters ?? []) as Node[]).map((p) => resolve(p) as unknown as Parameter);
  return new Map(declared.filter((p) => p.in === location).map((p) => {
    const root = rooted(p.schema);
    return [location === 'header' ? p.name.toLowerCase() : p.name, { ...p, root, validator: validatorOf(root) }];
  }));
}

/** A query string checked against an operation's query parameters. */
export interface QueryCheck<Q> {
  /** The values given, integers as numbers, and the declared defaults for those not given. */
  values: Q;
  /** Every failing parameter: unknown, repeated, missing when required, or against its schema. */
  errors: FieldError[];
}

/**
 * The query checker of one operation. Query values arrive as strings: a parameter whose schema is
 * an integer is read as one when it is written as one, and is otherwise a type failure.
 */
export function queryContract<P extends Path>(path: P, method: Method = 'get'): (url: URL) => QueryCheck<QueryOf<P>> {
  const declared = parameters(path, method, 'query');
  return (url) => {
    const errors: FieldError[] = [];
    const values: Record<string, unknown> = {};
    for (const name of new Set(url.searchParams.keys())) {
      const given = url.searchParams.getAll(name);
      const parameter = declared.get(name);
      if (!parameter) {
        errors.push({ parameter: name, code: 'unknown_parameter', detail: 'This parameter is not accepted.' });
      } else if (given.length > 1) {
        errors.push({ parameter: name, code: 'repeated', detail: `${name} may be given once.` });
      } else {
        const value = parameter.schema.type === 'integer' && /^-?\d{1,15}$/.test(given[0]) ? Number(given[0]) : given[0];
        const [failure] = failures(parameter.root, parameter.validator, value);
        if (failure) {
          errors.push({ parameter: name, code: 'invalid_format', detail: `${name} ${demandOf(parameter.root, failure)}.` });
        } else values[name] = value;
      }
    }
    for (const [name, parameter] of declared) {
      if (url.searchParams.has(name)) continue;
      if (parameter.required) errors.push({ parameter: name, code: 'required', detail: `${name} is required.` });
      else if (parameter.schema.default !== undefined) values[name] = parameter.schema.default;
    }
    return { values: values as QueryOf<P>, errors };
  };
}

/** Whether a value satisfies one of the document's schemas (`#/components/schemas/<name>`). */
export function schemaContract(name: string): (value: unknown) => boolean {
  const root = rooted({ $ref: `#/components/schemas/${name}` });
  const validator = validatorOf(root);
  return (value) => validator.validate(value).valid;
}

/** A shared schema's rule as one sentence's end (its `x-invalid`), for answers built outside the checkers. */
export function ruleOfSchema(name: string): string {
  const rule = at(`#/components/schemas/${name}`)?.['x-invalid'];
  if (typeof rule !== 'string') throw new Error(`the OpenAPI document's ${name} has no x-invalid`);
  return rule;
}

/** Whether a path or header parameter's value satisfies its schema (the caller knows its problem). */
export function parameterContract(path: Path, method: Method, location: 'path' | 'header', name: string): (value: string) => boolean {
  const parameter = parameters(path, method, location).get(location === 'header' ? name.toLowerCase() : name);
  if (!parameter) throw new Error(`${method.toUpperCase()} ${path} declares no ${location} parameter ${name}`);
  return (value) => failures(parameter.root, parameter.validator, value).length === 0;
}

const BODY_CODES: Record<string, string> = { required: 'required', type: 'invalid_type', false: 'unknown_field' };

/** One field error per failure: each missing member of a `required`, named by its own pointer. */
function bodyErrors(root: Node, validator: Validator, body: unknown): FieldError[] {
  const errors = new Map<string, FieldError>();
  for (const failure of failures(root, validator, body)) {
    const { error, constraint } = failure;
    const code = BODY_CODES[error.keyword] ?? 'invalid_format';
    if (error.keyword === 'required') {
      const instance = error.instanceLocation.split('/').slice(1).reduce((node, s) => (node as Node)[unescape(s)], body) as Node;
      for (const member of (constraint as string[]).filter((m) => !Object.hasOwn(instance, m))) {
        const pointer = `${error.instanceLocation}/${member.replaceAll('~', '~0').replaceAll('/', '~1')}`;
        errors.set(pointer, { pointer, code, detail: `${member} is required.` });
      }
      continue;
    }
    const pointer = error.instanceLocation;
    if (errors.has(pointer)) continue;
    const name = nameAt(pointer);
    const detail = error.keyword === 'false' ? 'This field is not accepted.' : `${name} ${demandOf(root, failure)}.`;
    errors.set(pointer, { pointer, code, detail });
  }
  return [...errors.values()];
}

/** The JSON body checker of one operation: the body as typed, or 400 `validation_failed` listing each failure. */
export function bodyContract<P extends Path, M extends Method = 'post'>(path: P, method: M = 'post' as M): (body: unknown) => BodyOf<P, M> {
  const content = (resolve(operation(path, method).requestBody as Node).content as Node)['application/json'] as Node;
  const root = rooted(content.schema as Node);
  const validator = validatorOf(root);
  return (body) => {
    const errors = bodyErrors(root, validator, body);
    if (errors.length) throw new Problem('validation_failed', 'The request body has invalid fields; see `errors`.', { errors });
    return body as BodyOf<P, M>;
  };
}
