// Numeric settings from the environment, checked at start-up: a value that is not what the setting
// needs stops the function there, with the setting's name, instead of failing every request later
// or silently meaning "no limit".

export type Env = (name: string) => string | undefined;

export interface NumberSetting {
  /** Used when the variable is unset. */
  fallback: number;
  integer?: boolean;
  /** Largest accepted value, inclusive. */
  max?: number;
}

/** A positive number from `env(name)`, or `fallback` when unset; throws naming the setting otherwise. */
export function positiveSetting(env: Env, name: string, { fallback, integer = false, max = Infinity }: NumberSetting): number {
  const raw = env(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value)) || value > max) {
    const kind = `a positive ${integer ? 'integer' : 'number'}${max < Infinity ? ` up to ${max}` : ''}`;
    throw new Error(`${name} must be ${kind}, not "${raw}"`);
  }
  return value;
}
