// Zod field helpers whose messages read well after the relay's "The <field> field " prefix, giving the
// framework-default (Laravel-style) validation text the messaging contract names: "The to field is required."
import { z } from 'zod';

/** A required string with "is required." / "must be a string." messages and a length bound. */
export function requiredString(max: number, options: { min?: number } = {}) {
  const min = options.min ?? 1;
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required.' : 'must be a string.') })
    .min(min, { error: min === 1 ? 'must not be empty.' : `must be at least ${min} characters.` })
    .max(max, { error: `must not be greater than ${max} characters.` });
}

/** An optional string with the same messages. */
export function optionalString(max: number) {
  return z
    .string({ error: () => 'must be a string.' })
    .min(1, { error: 'must not be empty.' })
    .max(max, { error: `must not be greater than ${max} characters.` })
    .optional();
}

/** A JSON object (not an array, not null). */
export function jsonObject(description: string) {
  return z
    .record(z.string(), z.unknown(), {
      error: (issue) => (issue.input === undefined ? 'is required.' : 'must be an object.'),
    })
    .describe(description);
}
