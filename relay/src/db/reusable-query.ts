// Queries built with Kysely once and afterwards only executed with new values, for hot paths: for
// small statements, building a query through Kysely's builder and compiler costs more than SQLite
// running it. The builder is handed a marker in place of every value; compiling shows which
// parameter each marker became, so later executions put real values in those places. The SQL stays
// what Kysely writes for the dialect, so one query serves SQLite and PostgreSQL alike.
import { CompiledQuery, type Compilable, type QueryResult } from 'kysely';

const MARKER = '\u0000reusable-query-value:';

/** Anything that executes a compiled query: the Kysely handle or a transaction. */
export type QueryExecutor = Readonly<{ executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> }>;

/** A value container: named values (an object) or positional ones (an array). */
type Values = Readonly<Record<string, unknown>> | readonly unknown[];

export class ReusableQuery<V extends Values, R> {
  private readonly sql: string;
  /** For each parameter, the key of its value in V. */
  private readonly slots: readonly string[];
  /** The parameters are V itself, in order (an array whose markers were used in order). */
  private readonly passThrough: boolean;

  /**
   * `build` receives markers typed as the values they stand for, so the query type-checks as usual;
   * it must use them for every value (a constant Kysely would pass as a parameter is refused).
   */
  constructor(build: (values: V) => Compilable<R>) {
    const markers = new Proxy({}, { get: (_target, key) => `${MARKER}${String(key)}` }) as V;
    const compiled = build(markers).compile();
    this.sql = compiled.sql;
    this.slots = compiled.parameters.map((parameter) => {
      if (typeof parameter !== 'string' || !parameter.startsWith(MARKER)) {
        throw new Error(`A reusable query got a constant parameter (${String(parameter)}); pass every value through the markers`);
      }
      return parameter.slice(MARKER.length);
    });
    this.passThrough = this.slots.every((slot, index) => slot === String(index));
  }

  execute(executor: QueryExecutor, values: V): Promise<QueryResult<R>> {
    const parameters =
      this.passThrough && Array.isArray(values) && values.length === this.slots.length
        ? values
        : this.slots.map((slot) => (values as Readonly<Record<string, unknown>>)[slot]);
    return executor.executeQuery(CompiledQuery.raw(this.sql, parameters) as CompiledQuery<R>);
  }
}
