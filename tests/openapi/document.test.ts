// The OpenAPI description is valid OpenAPI 3.1 by a maintained validator (Redocly's recommended
// ruleset), and it describes exactly the problem codes the function can answer.
import { readFile } from 'node:fs/promises';
import { createConfig, lint, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { openApiFile } from '../../scripts/openapi-artifacts.ts';
import { Problem, type ProblemCode, problems } from '../../supabase/functions/v3/problem.ts';
import { document } from './contract.ts';

const config = await createConfig({ extends: ['recommended'] });
const summarize = (
  problems: { severity: string; ruleId: string; message: string; location: { pointer?: string }[] }[],
) => problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);

type Node = Record<string, any>;
const schemas = (document.components as Node).schemas as Node;
const responses = (document.components as Node).responses as Node;

describe('the OpenAPI document', () => {
  it("passes Redocly's recommended ruleset with no errors and no warnings", async () => {
    expect(summarize(await lint({ ref: openApiFile, config }))).toEqual([]);
  });

  it('the same lint reports a broken document (so the check above can fail)', async () => {
    const broken = JSON.parse(await readFile(openApiFile, 'utf8'));
    delete broken.paths['/v3/sessions'].post.summary;
    broken.paths['/v3/sessions/{id}'].get.parameters = [];
    const problems = await lintFromString({ source: JSON.stringify(broken), absoluteRef: openApiFile, config });
    expect(problems.filter((p) => p.severity === 'error').map((p) => p.ruleId)).toEqual(
      expect.arrayContaining(['operation-summary', 'path-parameters-defined']),
    );
  });

  it('is OpenAPI 3.1, version 3.2.1, with the local and the hosted server', () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    expect((document.info as Node).version).toBe('3.2.1');
    expect((document.servers as Node[]).map((s) => s.url)).toEqual([
      'http://127.0.0.1:54321/functions/v1',
      '{SUPABASE_URL}/functions/v1',
    ]);
  });

  it('lists every problem code the function defines, each under a response of its status', () => {
    const defined = Object.keys(problems) as ProblemCode[];
    expect(defined.length).toBeGreaterThan(10);
    expect([...schemas.ProblemCode.enum].sort()).toEqual([...defined].sort());
    // Where each code can appear: the response components' narrowed code and status.
    const documented = new Map<string, number>();
    for (const response of Object.values(responses)) {
      const schema = response.content?.['application/problem+json']?.schema;
      if (!schema) continue;
      const narrowed = schema.allOf[1].properties;
      for (const code of narrowed.code.enum ?? [narrowed.code.const]) documented.set(code, narrowed.status.const);
    }
    for (const code of defined) {
      expect(documented.get(code), `${code} has a documented response`).toBe(new Problem(code, '').status);
    }
  });

  it('the request schema refuses unknown fields and bounds every field as the validator does', () => {
    const request = schemas.SessionRequest;
    expect(request.additionalProperties).toBe(false);
    expect(request.required).toEqual(['player_id', 'game_id', 'currency']);
    // Every player_id, and every id an operator chooses, is the one OperatorId (docs/validation.md).
    expect(request.properties.player_id.$ref).toBe('#/components/schemas/OperatorId');
    expect(schemas.OperatorId).toMatchObject({ minLength: 1, maxLength: 128 });
  });
});
