// The subset of TDL expressions that collection requests use in FILTER formulae and COMPUTE:
// `$Field`, `##SVFromDate`, literals, comparisons, AND/OR/NOT, parentheses and a few `$$` functions
// ($$IsEqual, $$IsEmpty, $$Number, $$String, $$Not). Anything else is unsupported TDL: the caller answers
// with a failure instead of guessing.
import { nameKey, parseTallyDate } from '../tally-format.js';

export class UnsupportedTdlError extends Error {}

export type TdlValue = string | number | boolean | { date: string };

export interface FormulaScope {
  field(name: string): TdlValue;
  variable(name: string): TdlValue;
}

type Token = { kind: 'op' | 'word' | 'string' | 'number' | 'field' | 'func' | 'var' | 'paren' | 'colon'; text: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/.test(ch)) {
      i += 1;
      continue;
    }
    if (ch === '(' || ch === ')' || ch === ':') {
      tokens.push({ kind: ch === ':' ? 'colon' : 'paren', text: ch });
      i += 1;
      continue;
    }
    const rest = source.slice(i);
    let m: RegExpExecArray | null;
    if ((m = /^(>=|<=|<>|!=|=|<|>)/.exec(rest))) tokens.push({ kind: 'op', text: m[1]! });
    else if ((m = /^\$\$([A-Za-z_][\w]*)/.exec(rest))) tokens.push({ kind: 'func', text: m[1]! });
    else if ((m = /^\$([A-Za-z_][\w.]*)/.exec(rest))) tokens.push({ kind: 'field', text: m[1]! });
    else if ((m = /^##([A-Za-z_][\w]*)/.exec(rest))) tokens.push({ kind: 'var', text: m[1]! });
    else if ((m = /^"([^"]*)"/.exec(rest)) || (m = /^'([^']*)'/.exec(rest))) tokens.push({ kind: 'string', text: m[1]! });
    else if ((m = /^(-?\d+(?:\.\d+)?)/.exec(rest))) tokens.push({ kind: 'number', text: m[1]! });
    else if ((m = /^([A-Za-z_@][\w]*)/.exec(rest))) tokens.push({ kind: 'word', text: m[1]! });
    else throw new UnsupportedTdlError(`unexpected '${ch}' in '${source}'`);
    i += m[0].length;
  }
  return tokens;
}

function truthy(value: TdlValue): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return value !== '' && nameKey(value) !== 'no';
  return value.date !== '';
}

function asDate(value: TdlValue): string | undefined {
  if (typeof value === 'object') return value.date;
  if (typeof value === 'string') return parseTallyDate(value);
  return undefined;
}

function compare(left: TdlValue, op: string, right: TdlValue): boolean {
  let a: string | number;
  let b: string | number;
  if (typeof left === 'object' || typeof right === 'object') {
    a = asDate(left) ?? '';
    b = asDate(right) ?? '';
  } else if (typeof left === 'number' || typeof right === 'number') {
    a = Number(typeof left === 'boolean' ? Number(left) : left) || 0;
    b = Number(typeof right === 'boolean' ? Number(right) : right) || 0;
  } else if (typeof left === 'boolean' || typeof right === 'boolean') {
    a = Number(truthy(left));
    b = Number(truthy(right));
  } else {
    a = nameKey(left);
    b = nameKey(right);
  }
  switch (op) {
    case '=':
      return a === b;
    case '<>':
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '<=':
      return a <= b;
    default:
      return a >= b;
  }
}

class Parser {
  private at = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly scope: FormulaScope,
  ) {}

  parseAll(): TdlValue {
    const value = this.or();
    if (this.at < this.tokens.length) throw new UnsupportedTdlError(`unexpected '${this.tokens[this.at]!.text}'`);
    return value;
  }

  private peekWord(word: string): boolean {
    const t = this.tokens[this.at];
    return t?.kind === 'word' && t.text.toUpperCase() === word;
  }

  private or(): TdlValue {
    let value = this.and();
    while (this.peekWord('OR')) {
      this.at += 1;
      const right = this.and();
      value = truthy(value) || truthy(right);
    }
    return value;
  }

  private and(): TdlValue {
    let value = this.not();
    while (this.peekWord('AND')) {
      this.at += 1;
      const right = this.not();
      value = truthy(value) && truthy(right);
    }
    return value;
  }

  private not(): TdlValue {
    if (this.peekWord('NOT')) {
      this.at += 1;
      return !truthy(this.not());
    }
    const left = this.primary();
    const t = this.tokens[this.at];
    if (t?.kind === 'op') {
      this.at += 1;
      return compare(left, t.text, this.primary());
    }
    return left;
  }

  private primary(): TdlValue {
    const t = this.tokens[this.at++];
    if (!t) throw new UnsupportedTdlError('unexpected end of formula');
    switch (t.kind) {
      case 'paren': {
        if (t.text !== '(') throw new UnsupportedTdlError("unexpected ')'");
        const value = this.or();
        if (this.tokens[this.at++]?.text !== ')') throw new UnsupportedTdlError("missing ')'");
        return value;
      }
      case 'string':
        return t.text;
      case 'number':
        return Number(t.text);
      case 'field':
        return this.scope.field(t.text);
      case 'var':
        return this.scope.variable(t.text);
      case 'func':
        return this.call(t.text);
      case 'word': {
        const upper = t.text.toUpperCase();
        if (upper === 'YES' || upper === 'TRUE') return true;
        if (upper === 'NO' || upper === 'FALSE') return false;
        throw new UnsupportedTdlError(`unknown word '${t.text}'`);
      }
      default:
        throw new UnsupportedTdlError(`unexpected '${t.text}'`);
    }
  }

  private args(count: number): TdlValue[] {
    const values: TdlValue[] = [];
    for (let i = 0; i < count; i += 1) {
      if (this.tokens[this.at]?.kind !== 'colon') throw new UnsupportedTdlError('missing function argument');
      this.at += 1;
      values.push(this.primary());
    }
    return values;
  }

  private call(name: string): TdlValue {
    switch (name.toLowerCase()) {
      case 'isequal': {
        const [a, b] = this.args(2) as [TdlValue, TdlValue];
        return compare(a, '=', b);
      }
      case 'isempty': {
        const [a] = this.args(1) as [TdlValue];
        return typeof a === 'string' ? a.trim() === '' : typeof a === 'object' ? a.date === '' : false;
      }
      case 'not':
        return !truthy(this.args(1)[0]!);
      case 'number': {
        const [a] = this.args(1) as [TdlValue];
        return typeof a === 'number' ? a : Number(String(a).replace(/[^0-9.-]/g, '')) || 0;
      }
      case 'string': {
        const [a] = this.args(1) as [TdlValue];
        return typeof a === 'object' ? a.date : String(a);
      }
      default:
        throw new UnsupportedTdlError(`function '$$${name}' is not supported`);
    }
  }
}

export function evaluateFormula(source: string, scope: FormulaScope): TdlValue {
  return new Parser(tokenize(source), scope).parseAll();
}

export function isTruthy(value: TdlValue): boolean {
  return truthy(value);
}
