// Settings from the environment, checked at start-up: a value that is not what the setting
// needs stops the function there, with the setting's name, instead of failing every request later
// or silently meaning "no limit".

export type Env = (name: string) => string | undefined;

export interface NumberSetting {
  /** Used when the variable is unset. */
  fallback: number;
  /** Whole numbers only. */
  integer?: boolean;
  /** Largest accepted value, inclusive: every setting has one, so none can mean "no limit". */
  max: number;
}

// Plain decimal notation only: Number() would also take "0x10", "1e3" or " 5 ".
const INTEGER = /^\d+$/;
const DECIMAL = /^\d+(\.\d+)?$/;

/** A positive number from `env(name)`, or `fallback` when unset; throws naming the setting otherwise. */
export function positiveSetting(env: Env, name: string, { fallback, integer = false, max }: NumberSetting): number {
  const raw = env(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!(integer ? INTEGER : DECIMAL).test(raw) || !(value > 0) || value > max) {
    throw new Error(`${name} must be a positive ${integer ? 'integer' : 'number'} up to ${max}, not "${raw}"`);
  }
  return value;
}

/** `true` or `false` from `env(name)`, or `fallback` when unset; throws naming the setting otherwise. */
export function booleanSetting(env: Env, name: string, fallback: boolean): boolean {
  const raw = env(name);
  if (raw === undefined) return fallback;
  if (raw !== 'true' && raw !== 'false') throw new Error(`${name} must be true or false, not "${raw}"`);
  return raw === 'true';
}
