// Inserts jobs: their queue rows and, in the same transaction, their documents, rendered XML and body
// fingerprints — one job, or a batch of concurrent ones in one transaction (see job-group-commit.ts).
// The caller's own transaction id is unique per company (an index, not a read-then-write), so
// concurrent repeats create one job and every repeat gets the first one back — when it sent the same
// body. A repeat with another body is refused (409), as the messaging API refuses one: replaying the
// first acceptance would tell the caller its second write was taken when it was not.
import { CompiledQuery, type Insertable, type Kysely } from 'kysely';
import { ReusableQuery } from '../../../db/reusable-query.js';
import type { Database } from '../../../db/schema.js';
import type { TransactionDocumentsTable, TransactionsTable } from '../../../db/bridge-tables.js';
import type { TransactionRow } from './transaction-record.js';

export type NewJob = Omit<Insertable<TransactionsTable>, 'id'> & Omit<Insertable<TransactionDocumentsTable>, 'transaction_id'>;

type QueueRow = Omit<Insertable<TransactionsTable>, 'id'>;
/**
 * What an insert answers of a new job: its row id (for its document) and what the caller's acceptance
 * says. Not the whole row: on SQLite, RETURNING every column of a batch made its insert cost about half
 * as much again (a scratch insert benchmark, not kept: 38 µs a row against 27 with these three columns).
 */
export type InsertedJob = Pick<TransactionRow, 'id' | 'job_id' | 'company_id'>;
const INSERTED_JOB_COLUMNS = ['id', 'job_id', 'company_id'] as const satisfies readonly (keyof InsertedJob)[];
type DocumentRow = Insertable<TransactionDocumentsTable>;
const DOCUMENT_COLUMNS = ['transaction_id', 'document', 'xml', 'xml_company_name', 'request_fingerprint'] as const satisfies readonly (keyof DocumentRow)[];
/** What queueWithDocuments takes as arrays: the job id to join on, then the document columns after transaction_id. */
const DOCUMENT_ARRAYS = ['job_id', 'document', 'xml', 'xml_company_name', 'request_fingerprint'] as const;

/**
 * The two INSERTs of a batch, built once per (columns, row count) and afterwards only executed with
 * new values (reusable-query.ts): building a multi-row insert of some twenty columns through the
 * query builder costs more than the database storing it. Kept per Kysely instance, since the SQL is
 * that dialect's own.
 */
class JobInsertStatements {
  private readonly queueRows = new Map<string, ReusableQuery<unknown[], InsertedJob>>();
  private readonly queueAndDocumentRows = new Map<string, ReusableQuery<unknown[], InsertedJob>>();
  private readonly documentRows = new Map<number, ReusableQuery<unknown[], never>>();

  constructor(private readonly db: Kysely<Database>) {}

  /** `columns`, then the values row by row in that order. */
  queue(columns: readonly (keyof QueueRow)[], rowCount: number): ReusableQuery<unknown[], InsertedJob> {
    return this.cached(this.queueRows, `${rowCount}:${columns.join(',')}`, () => new ReusableQuery((values) => this.insertQueued(columns, rowCount, values)));
  }

  /**
   * With writable CTEs (PostgreSQL): the queue rows and their documents in one statement, so one
   * round trip with no BEGIN and COMMIT — the documents joined by job id to the rows actually
   * inserted. The values are those of `queue`, then five arrays: the jobs' ids, documents, XML,
   * company names and fingerprints.
   */
  queueWithDocuments(columns: readonly (keyof QueueRow)[], rowCount: number): ReusableQuery<unknown[], InsertedJob> {
    return this.cached(this.queueAndDocumentRows, `${rowCount}:${columns.join(',')}`, () =>
      new ReusableQuery<unknown[], InsertedJob>((values) => {
        const insert = this.insertQueued(columns, rowCount, values).compile();
        const arrays = DOCUMENT_ARRAYS.map((_, index) => values[rowCount * columns.length + index]);
        const unnest = arrays.map((_, index) => `$${insert.parameters.length + index + 1}::text[]`).join(', ');
        const text =
          `with "queued" as (${insert.sql}), "documents" as (insert into "transaction_documents" ` +
          `(${DOCUMENT_COLUMNS.map((column) => `"${column}"`).join(', ')}) ` +
          `select "queued"."id", ${DOCUMENT_ARRAYS.slice(1).map((column) => `"d"."${column}"`).join(', ')} ` +
          `from "queued" inner join unnest(${unnest}) as "d"(${DOCUMENT_ARRAYS.map((column) => `"${column}"`).join(', ')}) ` +
          'on "d"."job_id" = "queued"."job_id") select * from "queued"';
        return { compile: () => CompiledQuery.raw(text, [...insert.parameters, ...arrays]) as CompiledQuery<InsertedJob> };
      }),
    );
  }

  private insertQueued(columns: readonly (keyof QueueRow)[], rowCount: number, values: readonly unknown[]) {
    return this.db
      .insertInto('transactions')
      .values(rowsOfMarkers<QueueRow>(columns, rowCount, values))
      .onConflict((oc) => oc.columns(['company_id', 'client_transaction_id']).doNothing())
      .returning(INSERTED_JOB_COLUMNS);
  }

  private cached<Q>(statements: Map<string, Q>, key: string, build: () => Q): Q {
    let statement = statements.get(key);
    if (!statement) {
      statement = build();
      if (statements.size >= MAX_STATEMENTS) statements.clear();
      statements.set(key, statement);
    }
    return statement;
  }

  documents(rowCount: number): ReusableQuery<unknown[], never> {
    let statement = this.documentRows.get(rowCount);
    if (!statement) {
      statement = new ReusableQuery<unknown[], never>((values) =>
        this.db.insertInto('transaction_documents').values(rowsOfMarkers<DocumentRow>(DOCUMENT_COLUMNS, rowCount, values)),
      );
      this.documentRows.set(rowCount, statement);
    }
    return statement;
  }
}

/** Batches are capped (batch-scheduler.ts), and jobs have few shapes: this bounds a runaway only. */
const MAX_STATEMENTS = 256;

/** The marker rows ReusableQuery builds with: the row-r, column-c value is at r × columns + c. */
function rowsOfMarkers<R>(columns: readonly string[], rowCount: number, values: readonly unknown[]): R[] {
  return Array.from({ length: rowCount }, (_, row) => Object.fromEntries(columns.map((column, index) => [column, values[row * columns.length + index]])) as R);
}

const statementsByDb = new WeakMap<Kysely<Database>, JobInsertStatements>();

function statementsFor(db: Kysely<Database>): JobInsertStatements {
  let statements = statementsByDb.get(db);
  if (!statements) {
    statements = new JobInsertStatements(db);
    statementsByDb.set(db, statements);
  }
  return statements;
}

/** The columns a row gives a value (an undefined one is left to the column's default, as Kysely leaves it). */
function columnsOf(row: QueueRow): (keyof QueueRow)[] {
  return (Object.keys(row) as (keyof QueueRow)[]).filter((column) => row[column] !== undefined);
}

/**
 * Inserts the jobs in one transaction, in their order (so their ids follow it), each with its
 * document. Answers each job's new row (the columns of InsertedJob), or undefined for one whose
 * (company, transaction_id) was taken — by an earlier job, or by an earlier job of the same batch.
 * Throws when the transaction fails: nothing of the batch is kept.
 */
export async function insertJobs(
  db: Kysely<Database>,
  jobs: readonly NewJob[],
  options: { writableCtes?: boolean } = {},
): Promise<(InsertedJob | undefined)[]> {
  if (jobs.length === 0) return [];
  const statements = statementsFor(db);
  const queued: QueueRow[] = jobs.map(({ document: _document, xml: _xml, xml_company_name: _name, request_fingerprint: _fingerprint, ...row }) => row);
  // One multi-row INSERT when every row names the same columns; otherwise one per job, because a
  // column one row leaves out would be written as NULL on SQLite (it has no DEFAULT in VALUES).
  const columns = queued.map(columnsOf);
  const shape = (index: number) => columns[index]!.join(',');
  const sameShape = queued.every((_, index) => shape(index) === shape(0));
  if (sameShape && options.writableCtes) {
    const values: unknown[] = [];
    for (const row of queued) for (const column of columns[0]!) values.push(row[column]);
    values.push(
      jobs.map((job) => job.job_id),
      jobs.map((job) => job.document),
      jobs.map((job) => job.xml),
      jobs.map((job) => job.xml_company_name),
      jobs.map((job) => job.request_fingerprint ?? null),
    );
    const { rows } = await statements.queueWithDocuments(columns[0]!, queued.length).execute(db, values);
    const inserted = new Map(rows.map((row) => [row.job_id, row]));
    return jobs.map((job) => inserted.get(job.job_id));
  }
  const groups: number[][] = sameShape ? [queued.map((_, index) => index)] : queued.map((_, index) => [index]);
  const inserted = await db.transaction().execute(async (trx) => {
    const rows: InsertedJob[] = [];
    for (const group of groups) {
      const groupColumns = columns[group[0]!]!;
      const values: unknown[] = [];
      for (const index of group) for (const column of groupColumns) values.push(queued[index]![column]);
      rows.push(...(await statements.queue(groupColumns, group.length).execute(trx, values)).rows);
    }
    if (rows.length > 0) {
      const byJobId = new Map(jobs.map((job) => [job.job_id, job]));
      const values: unknown[] = [];
      for (const row of rows) {
        const job = byJobId.get(row.job_id)!;
        values.push(row.id, job.document, job.xml, job.xml_company_name, job.request_fingerprint ?? null);
      }
      await statements.documents(rows.length).execute(trx, values);
    }
    return new Map(rows.map((row) => [row.job_id, row]));
  });
  return jobs.map((job) => inserted.get(job.job_id));
}
