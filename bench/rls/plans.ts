// Whether a plan evaluates the policy helpers once per query: each call must sit in an InitPlan
// (run once, its value reused for every row), never in a scan's filter (run once per row), and a
// policy's IN-subquery must be a hashed SubPlan (built once, probed per row).

interface PlanNode {
  'Node Type': string;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
  [field: string]: unknown;
}

// How each helper shows in EXPLAIN VERBOSE. auth.uid() is a plain SQL function and gets
// inlined, so its body is what shows; private.uid() (plpgsql, like is_staff()) shows by name.
const helpers: Record<string, string> = {
  'auth.uid()': "current_setting('request.jwt.claim",
  'uid()': 'private.uid()',
  'is_staff()': 'private.is_staff()',
};

export interface PlanVerdict {
  ok: boolean;
  /** e.g. "InitPlan: is_staff(), uid(); hashed SubPlan", or what is wrong. */
  summary: string;
}

export function checkPlan(explained: unknown): PlanVerdict {
  const problems: string[] = [];
  const once = new Set<string>();
  let hashed = false;
  const indexConds = new Set<string>();
  const walk = (node: PlanNode, inInitPlan: boolean) => {
    // A policy's value used as an index condition (a client's read by its owner column).
    const cond = node['Index Cond'];
    if (!inInitPlan && typeof cond === 'string' && cond.includes('InitPlan')) indexConds.add(cond);
    const initPlan = inInitPlan || node['Parent Relationship'] === 'InitPlan';
    // The node's own expressions, without its children or its own subplan label.
    const { Plans, 'Subplan Name': _label, ...own } = node;
    const text = JSON.stringify(own);
    for (const [helper, marker] of Object.entries(helpers)) {
      if (!text.includes(marker)) continue;
      if (initPlan) once.add(helper);
      else problems.push(`${helper} per row in ${node['Node Type']}`);
    }
    if (/hashed SubPlan \d+/.test(text)) hashed = true;
    if (/(?<!hashed )SubPlan \d+/.test(text)) problems.push(`unhashed SubPlan in ${node['Node Type']}`);
    for (const child of Plans ?? []) walk(child, initPlan);
  };
  walk((explained as { Plan: PlanNode }).Plan, false);
  if (problems.length) return { ok: false, summary: [...new Set(problems)].join('; ') };
  const parts = [once.size ? `InitPlan: ${[...once].sort().join(', ')}` : 'no helpers'];
  if (hashed) parts.push('hashed SubPlan');
  if (indexConds.size) parts.push(`Index Cond: ${[...indexConds].join(', ')}`);
  return { ok: true, summary: parts.join('; ') };
}
