// Issue 35: SQL lives in a module's `store/` folder, one operation per file. Outside `store/` no file
// builds or runs a statement; inside it, no file exports more than one function that does. The rule is
// read from the source text (comments left out), so it is a tripwire, not a parser: see the fixtures
// at the end for what it catches and what it lets pass.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Files outside a `store/` folder allowed to run SQL, relative to relay/src: none since every module's
 * SQL moved into its store/. Kept (and checked to hold only files that do run SQL) so an exception, if
 * one is ever needed, is named here with its reason rather than slipped past the rule.
 */
const ALLOWLIST: readonly string[] = [];

/**
 * Files that are one SQL operation already and stay where they are, outside a store/ folder; they are
 * held to the store rule instead (one SQL-running export at most).
 */
const SINGLE_OPERATION_FILES: readonly string[] = [
  // The loop-health probe of every queue: one query, shared by background loops of several modules.
  'background/oldest-due-row.ts',
];

/** A statement being built: Kysely's query starters. */
const STATEMENT = /\.(?:selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(/;
/** A raw SQL template: sql`…` or sql<T>`…`. On its own it may be a fragment for another statement. */
const SQL_TEMPLATE = /\bsql(?:<[^`;]*?>)?`/;
/** A query being run (Kysely builders, raw templates, compiled or reusable queries). */
const RUN = /\.(?:execute|executeTakeFirst|executeTakeFirstOrThrow|executeQuery|stream)\(/;

/** The source without whole-line comments (`//`, and the lines of a block comment). */
function withoutComments(source: string): string {
  return source
    .split('\n')
    .filter((line) => !/^\s*(?:\/\/|\/\*|\*)/.test(line))
    .join('\n');
}

/**
 * Whether this text runs SQL: it builds a statement, or it runs a raw template. A helper that only
 * returns a template fragment for a caller's statement (console-sql.ts's `columnContains`) does not.
 */
function runsSql(text: string): boolean {
  return STATEMENT.test(text) || (SQL_TEMPLATE.test(text) && RUN.test(text));
}

/** A top-level declaration's first line (a re-export `export { … } from` too, as a boundary). */
const DECLARATION = /^(export\s+)?(?:default\s+)?(async\s+)?(function|const|let|class|type|interface|enum|import)\b|^export\s*[{*]/;

/**
 * The top-level exported functions (or consts or classes) that are async or run a query: everything
 * from one top-level declaration to the next counts as that declaration's body.
 */
function sqlExports(source: string): string[] {
  const lines = withoutComments(source).split('\n');
  const found: string[] = [];
  let current: { header: string; exported: boolean; async: boolean; kind: string; body: string[] } | undefined;
  const close = () => {
    if (!current || !current.exported || !['function', 'const', 'let', 'class'].includes(current.kind)) return;
    const body = current.body.join('\n');
    if (current.async || runsSql(body) || RUN.test(body)) found.push(current.header.trim());
  };
  for (const line of lines) {
    const match = DECLARATION.exec(line);
    if (match) {
      close();
      current = { header: line, exported: match[1] !== undefined, async: match[2] !== undefined, kind: match[3] ?? '', body: [line] };
    } else {
      current?.body.push(line);
    }
  }
  close();
  return found;
}

type SourceFile = Readonly<{ path: string; source: string }>;

/** The rule, over files named relative to relay/src; answers one message per violation. */
function storeViolations(files: readonly SourceFile[], allowlist: readonly string[], singleOperation: readonly string[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const inStore = file.path.split('/').includes('store');
    if (inStore || singleOperation.includes(file.path)) {
      const exported = sqlExports(file.source);
      if (exported.length > 1) problems.push(`${file.path} exports ${exported.length} functions that run SQL (one operation per file): ${exported.join(' | ')}`);
    } else if (runsSql(withoutComments(file.source)) && !allowlist.includes(file.path)) {
      problems.push(`${file.path} runs SQL outside a store/ folder: move each operation into its module's store/`);
    }
  }
  return problems;
}

const srcRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

function relaySources(): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts')) files.push({ path: path.relative(srcRoot, full).split(path.sep).join('/'), source: fs.readFileSync(full, 'utf8') });
    }
  };
  walk(srcRoot);
  // The database layer itself (connection, dialects, migrations, reusable queries) is infrastructure.
  return files.filter((file) => !file.path.startsWith('db/migrations/') && !/^db\/[^/]+\.ts$/.test(file.path));
}

describe('one SQL operation per file, in store/', () => {
  const files = relaySources();

  it('holds for every file under relay/src', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(storeViolations(files, ALLOWLIST, SINGLE_OPERATION_FILES)).toEqual([]);
  });

  it('allows only files that still run SQL outside store/ (the allowlist only shrinks)', () => {
    const stale = ALLOWLIST.filter((name) => {
      const file = files.find((f) => f.path === name);
      return file === undefined || !runsSql(withoutComments(file.source));
    });
    expect(stale, 'remove these from ALLOWLIST: they no longer run SQL outside store/').toEqual([]);
  });

  it('fails a file outside store/ that runs SQL, and a store/ file with two operations', () => {
    const outside = { path: 'widgets/widget-service.ts', source: "export async function f(db) {\n  return db.selectFrom('widgets').selectAll().execute();\n}\n" };
    const rawOutside = { path: 'widgets/widget-count.ts', source: 'export async function g(db) {\n  return (await sql`select count(*) from widgets`.execute(db)).rows;\n}\n' };
    const two = {
      path: 'widgets/store/widget-ops.ts',
      source: [
        '// Two operations in one file.',
        "export async function findWidget(db, id) {\n  return db.selectFrom('widgets').selectAll().where('id', '=', id).executeTakeFirst();\n}",
        "export function deleteWidget(db, id) {\n  return db.deleteFrom('widgets').where('id', '=', id).execute();\n}",
      ].join('\n'),
    };
    const problems = storeViolations([outside, rawOutside, two], [], []);
    expect(problems).toHaveLength(3);
    expect(problems[2]).toContain('exports 2 functions');
    // The same file outside store/ passes only when allowlisted.
    expect(storeViolations([outside], [outside.path], [])).toEqual([]);
  });

  it('passes one operation per store/ file, its types and pure helpers, and fragment helpers anywhere', () => {
    const one = {
      path: 'widgets/store/find-widget.ts',
      source: [
        '// Finds a widget.',
        'export type WidgetRow = { id: string };',
        "const COLUMNS = ['id'] as const;",
        'export function widgetLabel(row: WidgetRow): string {\n  return row.id;\n}',
        "export async function findWidget(db, id) {\n  return db.selectFrom('widgets').select(COLUMNS).where('id', '=', id).executeTakeFirst();\n}",
      ].join('\n'),
    };
    const fragment = { path: 'widgets/widget-sql.ts', source: 'export function lowerOf(column) {\n  return sql`lower(${sql.ref(column)})`;\n}\n' };
    const comment = { path: 'widgets/widget-notes.ts', source: "// Calls db.selectFrom('widgets') through the store.\nexport const note = 1;\n" };
    expect(storeViolations([one, fragment, comment], [], [])).toEqual([]);
  });
});
