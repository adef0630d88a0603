// SQL pieces the console's searches share, written once for SQLite and PostgreSQL: a case-insensitive
// "contains" with LIKE's wildcards taken literally, and a value read out of JSON kept in a text column.
import { sql, type RawBuilder } from 'kysely';
import type { DialectCapabilities } from '../../db/capabilities.js';

/** LIKE pattern matching `text` anywhere, with LIKE's wildcards in it taken literally. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `lower(column) like '%text%'`, any case, wildcards literal. */
export function columnContains(column: string, text: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) like ${containsPattern(text)} escape '\\'`;
}

/** The text of one top-level key of a JSON object kept in a text column (null when absent). */
export function jsonField(capabilities: DialectCapabilities, column: string, key: string): RawBuilder<string | null> {
  if (!/^[a-z_]+$/.test(key)) throw new Error(`jsonField: unexpected key ${key}`);
  const source = capabilities.jsonTextNeedsCast ? sql`cast(${sql.ref(column)} as jsonb)` : sql.ref(column);
  return sql<string | null>`(${source} ->> ${sql.raw(`'${key}'`)})`;
}

/** Parses a JSON list of open books companies, as the connectors table keeps it. */
export function openCompanyGuids(json: string | null): Set<string> {
  if (json === null) return new Set();
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return new Set();
    return new Set(value.flatMap((c: unknown) => (c !== null && typeof c === 'object' && typeof (c as { guid?: unknown }).guid === 'string' ? [(c as { guid: string }).guid] : [])));
  } catch {
    return new Set();
  }
}
