// What a request means, for its fingerprint: a decimal by its value, however spelt.

/** A decimal string as its value: `"2.50"` and `"2.5"` are one, as are `"1.0"` and `"1"`. */
export function decimalValue(amount: string): string {
  return amount.includes('.') ? amount.replace(/0+$/, '').replace(/\.$/, '') : amount;
}
