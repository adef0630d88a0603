// The variables a template uses, read from the Handlebars syntax tree of its subject, HTML and text —
// {{name}}, {{invoice.number}}, {{#each items}}{{name}}{{/each}}, {{#if paid}}, {{#with customer}},
// ../ and block params — so the editor can offer sample data that fits the template and warn about
// a variable the sample data lacks (it would render empty). Paths are dotted from the data's root;
// `[]` marks "each element of the list" (items[].name).
import Handlebars from 'handlebars';

export type TemplateVariableKind = 'value' | 'list' | 'section';
export type TemplateVariable = Readonly<{ path: string; kind: TemplateVariableKind }>;

type Node = hbs.AST.Node;
type Expression = hbs.AST.Expression;

/** One level of context: where `this` points, and the names block params give (null: the index, not data). */
type Scope = Readonly<{ path: readonly string[]; params: ReadonlyMap<string, readonly string[] | null> }>;

/** Handlebars' own block helpers; any other block name is a variable used as a section. */
const CONTEXT_HELPERS = new Set(['each', 'with']);
const TEST_HELPERS = new Set(['if', 'unless']);

class VariableCollector {
  readonly found = new Map<string, TemplateVariableKind>();

  note(path: readonly string[], kind: TemplateVariableKind): void {
    if (path.length === 0) return;
    const key = pathText(path);
    const before = this.found.get(key);
    // A list or section says more about the shape than a plain value use of the same path.
    if (before === undefined || before === 'value') this.found.set(key, kind);
  }

  /** The data path an expression reads in this scope chain; undefined for literals and @data. */
  resolve(expression: Expression, scopes: readonly Scope[]): string[] | undefined {
    if (expression.type !== 'PathExpression') return undefined;
    const path = expression as hbs.AST.PathExpression;
    if (path.data) return undefined;
    const scope = scopes[Math.max(0, scopes.length - 1 - path.depth)] ?? { path: [], params: new Map() };
    const [head, ...rest] = path.parts;
    if (head !== undefined && path.depth === 0 && !path.original.startsWith('this')) {
      for (let index = scopes.length - 1; index >= 0; index -= 1) {
        const params = scopes[index]?.params;
        if (!params?.has(head)) continue;
        const named = params.get(head);
        return named ? [...named, ...rest] : undefined;
      }
    }
    return [...scope.path, ...path.parts];
  }

  expression(expression: Expression, scopes: readonly Scope[], kind: TemplateVariableKind = 'value'): void {
    if (expression.type === 'SubExpression') {
      const call = expression as hbs.AST.SubExpression;
      this.arguments(call.params, call.hash, scopes);
      return;
    }
    const path = this.resolve(expression, scopes);
    if (path) this.note(path, kind);
  }

  arguments(params: readonly Expression[], hash: hbs.AST.Hash | undefined, scopes: readonly Scope[]): void {
    for (const param of params) this.expression(param, scopes);
    for (const pair of hash?.pairs ?? []) this.expression(pair.value, scopes);
  }

  program(program: hbs.AST.Program | undefined, scopes: readonly Scope[]): void {
    for (const statement of program?.body ?? []) this.statement(statement, scopes);
  }

  statement(node: Node, scopes: readonly Scope[]): void {
    if (node.type === 'MustacheStatement') {
      const mustache = node as hbs.AST.MustacheStatement;
      // {{helper arg}} uses its arguments; {{name}} (no arguments) is a variable.
      if (mustache.params.length > 0 || (mustache.hash?.pairs.length ?? 0) > 0) this.arguments(mustache.params, mustache.hash, scopes);
      else this.expression(mustache.path as Expression, scopes);
      return;
    }
    if (node.type === 'BlockStatement') this.block(node as hbs.AST.BlockStatement, scopes);
  }

  private block(block: hbs.AST.BlockStatement, scopes: readonly Scope[]): void {
    const helper = block.path.original;
    const [subject, ...others] = block.params;
    this.arguments(others, block.hash, scopes);
    if (CONTEXT_HELPERS.has(helper) && subject !== undefined) {
      const path = this.resolve(subject, scopes);
      const kind = helper === 'each' ? 'list' : 'section';
      if (path) this.note(path, kind);
      const inner = path ? (helper === 'each' ? [...path, '[]'] : path) : undefined;
      const [asName, indexName] = block.program.blockParams ?? [];
      const params = new Map<string, readonly string[] | null>(asName && inner ? [[asName, inner]] : []);
      if (indexName) params.set(indexName, null);
      // `each` with a block param (as |item|) keeps `this` where it was; without one, `this` is the element.
      const context: Scope = { path: asName ? (scopes[scopes.length - 1]?.path ?? []) : (inner ?? []), params };
      this.program(block.program, [...scopes, context]);
      this.program(block.inverse, scopes);
      return;
    }
    if (TEST_HELPERS.has(helper)) {
      if (subject !== undefined) this.expression(subject, scopes, 'section');
      this.program(block.program, scopes);
      this.program(block.inverse, scopes);
      return;
    }
    if (block.params.length === 0) {
      // {{#orders}}…{{/orders}}: a mustache-style section over a variable (a list or an object).
      const path = this.resolve(block.path, scopes);
      if (path) this.note(path, 'section');
      this.program(block.program, path ? [...scopes, { path, params: new Map() }] : scopes);
      this.program(block.inverse, scopes);
      return;
    }
    // A helper this relay does not know (it would fail to render anyway): its arguments are variables.
    if (subject !== undefined) this.expression(subject, scopes);
    this.program(block.program, scopes);
    this.program(block.inverse, scopes);
  }
}

function pathText(path: readonly string[]): string {
  return path.reduce((text, part) => (part === '[]' ? `${text}[]` : text === '' ? part : `${text}.${part}`), '');
}

/** Every variable the templates use, in order of first use. Throws on a template that does not parse. */
export function templateVariables(sources: readonly string[]): TemplateVariable[] {
  const collector = new VariableCollector();
  for (const source of sources) collector.program(Handlebars.parse(source), [{ path: [], params: new Map() }]);
  return [...collector.found].map(([path, kind]) => ({ path, kind }));
}

type Shape = { kind: TemplateVariableKind; children: Map<string, Shape> };

/** Data with a made-up value for each variable: two elements per list, a true or an object per section. */
export function sampleDataFor(variables: readonly TemplateVariable[]): Record<string, unknown> {
  const root: Shape = { kind: 'section', children: new Map() };
  for (const variable of variables) {
    let node = root;
    for (const part of splitPath(variable.path)) {
      let next = node.children.get(part);
      if (!next) {
        next = { kind: 'value', children: new Map() };
        node.children.set(part, next);
      }
      node = next;
    }
    if (variable.kind !== 'value') node.kind = variable.kind;
  }
  return objectOf(root);
}

function splitPath(path: string): string[] {
  return path.split(/\.|(?=\[\])|(?<=\[\])/).filter((part) => part !== '');
}

/** `element` is the index of the list element being filled in, if any (sample values differ per element). */
function objectOf(shape: Shape, element?: number): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [name, child] of shape.children) if (name !== '[]') data[name] = valueOf(name, child, element);
  return data;
}

function valueOf(name: string, shape: Shape, element: number | undefined): unknown {
  const each = shape.children.get('[]');
  if (shape.kind === 'list' || each) {
    return [0, 1].map((n) => (each && each.children.size > 0 ? objectOf(each, n) : sampleValue(name, n)));
  }
  if (shape.children.size > 0) return objectOf(shape, element);
  if (shape.kind === 'section') return true;
  return sampleValue(name, element);
}

/** A plausible value for a field, guessed from its name (the editor shows it; the user can change it). */
function sampleValue(name: string, element: number | undefined): string | number {
  const key = name.toLowerCase();
  const index = element ?? 0;
  const nth = element === undefined ? '' : ` ${element + 1}`;
  if (key.includes('email')) return 'asha@example.com';
  if (key.includes('url') || key.includes('link')) return 'https://example.com/account';
  if (key.includes('date') || key.endsWith('_at') || key === 'on') return '2026-04-01';
  if (/(amount|total|price|balance|rate|tax|subtotal)/.test(key)) return '1,250.00';
  if (/(qty|quantity|count)/.test(key)) return 2;
  if (/(number|^no$|_no$|code|id$)/.test(key)) return `INV-100${index + 1}`;
  if (key.includes('phone') || key.includes('mobile')) return '+91 98765 43210';
  if (key.includes('name')) return element === undefined ? 'Asha Rao' : `Item${nth}`;
  return `Sample ${name}${nth}`;
}

/** The variables the data lacks (each element of a list is checked). A section that is absent counts too. */
export function missingVariables(variables: readonly TemplateVariable[], data: Record<string, unknown>): string[] {
  const missing = variables.filter((variable) => !present(splitPath(variable.path), data, variable.kind)).map((variable) => variable.path);
  // customer missing says it all: customer.name and customer.email need not be listed as well.
  return missing.filter((path) => !missing.some((other) => other !== path && (path.startsWith(`${other}.`) || path.startsWith(`${other}[]`))));
}

function present(parts: readonly string[], value: unknown, kind: TemplateVariableKind): boolean {
  const [head, ...rest] = parts;
  // A list the template iterates must be a list; anything else only needs to be there.
  if (head === undefined) return kind === 'list' ? Array.isArray(value) : value !== undefined && value !== null;
  if (head === '[]') return Array.isArray(value) && value.every((element) => present(rest, element, kind));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return present(rest, (value as Record<string, unknown>)[head], kind);
}
