// The {player_id} of a path (restrictions, sandbox players): the operator's own id for its player,
// percent-decoded, checked against the document's schema before the database sees it.
import { parameterContract, ruleOfSchema } from './contract.ts';
import { Problem } from './problem.ts';

const isPlayerId = parameterContract('/v3/players/{player_id}/restrictions', 'get', 'path', 'player_id');
const rule = `player_id ${ruleOfSchema('OperatorId')}.`;

/** The {player_id} of a path: the document's OperatorId (docs/validation.md), or 400. */
export function playerIdOf(segment: string): string {
  let id: string;
  try {
    id = decodeURIComponent(segment);
  } catch {
    id = segment;
  }
  if (!isPlayerId(id)) {
    throw new Problem('invalid_parameters', 'The path has an invalid parameter; see `errors`.', {
      errors: [{ parameter: 'player_id', code: 'invalid_format', detail: rule }],
    });
  }
  return id;
}
