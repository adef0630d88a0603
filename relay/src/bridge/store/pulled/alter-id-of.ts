// How alter ids compare: the books count them up, as digits; anything else sorts before every real one.
// Beside the pulled-data writes that decide with it whether a copy is older than the stored one.

/** An alter id as a number to compare by (the books count up); anything else sorts before every real one. */
export function alterIdOf(value: string | null | undefined): bigint {
  return value && /^\d+$/.test(value) ? BigInt(value) : -1n;
}
