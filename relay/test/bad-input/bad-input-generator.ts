// Seeded generator of bad requests for one operation of the OpenAPI document: a plausible request
// built from the operation's schemas, then one mutation — wrong types, missing and extra fields, huge
// strings, NUL, lone surrogates, deep nesting, huge/negative/fractional numbers, bad ids in paths, bad
// percent-encoding, wrong content types, huge headers. The same seed gives the same requests.
import type { JsonSchema, Operation } from './openapi-operations.js';

/** mulberry32: small, fast and reproducible; the suite needs repeatability, not quality. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(rng: Random, list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;

export type BadRequest = Readonly<{
  mutation: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}>;

/** Values of path parameters that exist (so a request can get past the lookup to its validation). */
export type PathValues = (operation: Operation, name: string) => string;

const BAD_PATH_IDS = [
  '0x1', '1e0', '+1', '%201', '01', '-1', '0', '1.5', '2147483648', '-2147483649', '99999999999999999999999',
  '%00', 'a%00b', '%ED%A0%80', '%ED%B0%80x', '%E0%A4', '%', '%zz', 'x'.repeat(201), 'y'.repeat(499), 'z'.repeat(700),
  '%F0%9F%98%80', '%C3%A9t%C3%A9', '%2e%2e', '..', "'%20or%201=1--", 'null', 'undefined', '%0A', '%09',
];

const BAD_QUERY_VALUES = [
  '0x1', '1e0', '+1', '%201', '01', '-1', '0', '1.5', '1e300', '2147483648', '-2147483649', '99999999999999999999999',
  '', '%00', 'a%00b', '%ED%A0%80', '%E0%A4', '%', '%zz', 'q'.repeat(5000), 'true', '[]', '%5B%5D', 'NaN', 'Infinity',
];

/** Raw JSON number texts: each is placed in the body as written (not as a double). */
const BAD_NUMBERS = ['1e308', '1e400', '-1e400', '1e-400', '-1', '0', '-0', '1.5', '2147483648', '-2147483649', '9007199254740993', '99999999999999999999999999', '0.1e1'];

const MARK = '\u0001mark\u0001';

/** A value the schema accepts in the common cases (no pattern solving: a near miss still reaches validation). */
export function plausible(schema: JsonSchema | undefined, name = '', depth = 0): unknown {
  if (!schema || depth > 6) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice?.length) return plausible(choice.find((s) => s.type !== 'null') ?? choice[0], name, depth + 1);
  if (schema.allOf?.length) return plausible(schema.allOf[0], name, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties ?? {})) out[key] = plausible(prop, key, depth + 1);
      return out;
    }
    case 'array':
      return [plausible(schema.items, name, depth + 1)];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1);
    case 'boolean':
      return true;
    default:
      return plausibleString(schema, name);
  }
}

function plausibleString(schema: JsonSchema, name: string): string {
  if (schema.format === 'email' || /email|^to$/.test(name)) return 'ada@example.com';
  if (schema.format === 'date-time' || name.endsWith('_at')) return '2026-11-20T10:00:00Z';
  if (schema.format === 'date' || /date/.test(name)) return '2026-04-01';
  // A TEST-NET address: the URL policy refuses it without a DNS lookup or a connection.
  if (schema.format === 'uri' || /url/.test(name)) return 'https://203.0.113.7/hook';
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1)).replace(/^x/, 'A');
}

/** The paths (lists of keys) of every property of a plausible body, for a mutation to aim at. */
function keyPaths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (Array.isArray(value)) value.forEach((item, i) => (out.push([...prefix, i]), keyPaths(item, [...prefix, i], out)));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push([...prefix, k]);
      keyPaths(v, [...prefix, k], out);
    }
  }
  return out;
}

function setAt(root: unknown, path: readonly (string | number)[], value: unknown, remove = false): void {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (remove) delete node[last];
  else node[last] = value;
}

const BODY_MUTATIONS = [
  'wrong-type', 'missing-field', 'extra-field', 'huge-string', 'nul-string', 'lone-surrogate', 'deep-nesting',
  'bad-number', 'huge-array', 'many-keys', 'not-an-object', 'invalid-json', 'wrong-content-type', 'empty-body',
  'nul-key', 'null-everywhere',
] as const;

/** The body text after one mutation of a plausible body; `[text, content type]`. */
function mutateBody(rng: Random, schema: JsonSchema, mutation: string): [string | undefined, string | undefined] {
  const body = plausible(schema);
  const targets = keyPaths(body);
  const target = targets.length > 0 ? pick(rng, targets) : undefined;
  const json = 'application/json';
  let raw: string | undefined;
  const place = (value: unknown) => (target ? setAt(body, target, value) : undefined);
  switch (mutation) {
    case 'wrong-type': place(pick(rng, [42, 'text', true, null, [], {}, [[1]], -1.5])); break;
    case 'missing-field': if (target) setAt(body, target, undefined, true); break;
    case 'extra-field': (body as Record<string, unknown>)[pick(rng, ['__proto__x', 'unexpected', 'constructor', 'id', 'company_id'])] = pick(rng, [1, 'x', null]); break;
    case 'huge-string': place('h'.repeat(pick(rng, [1_000, 70_000, 600_000]))); break;
    case 'nul-string': place(pick(rng, ['\u0000', 'a\u0000b', 'INV\u0000-1'])); break;
    case 'lone-surrogate': place(pick(rng, ['\ud800', 'a\udfffb', '\udbff\ud800', 'txn-\ud83d'])); break;
    case 'deep-nesting': place(MARK); raw = pick(rng, ['[', '{"a":']).repeat(pick(rng, [40, 2_000, 10_000])); break;
    case 'bad-number': place(MARK); raw = pick(rng, BAD_NUMBERS); break;
    case 'huge-array': place(Array.from({ length: pick(rng, [1_001, 12_000]) }, () => pick(rng, [1, 'x']))); break;
    case 'many-keys': place(Object.fromEntries(Array.from({ length: 1_500 }, (_, i) => [`k${i}`, i]))); break;
    case 'nul-key': place({ 'a\u0000': 1 }); break;
    case 'null-everywhere': for (const t of targets) if (t.length === 1) setAt(body, t, null); break;
    case 'not-an-object': return [pick(rng, ['[]', 'null', '"text"', '42', 'true', '[{}]']), json];
    case 'invalid-json': return [pick(rng, ['{', '{"a":}', "{'a':1}", '{"a":1,}', '\ufeff{}', '{"a":NaN}', '']), json];
    case 'wrong-content-type': return [JSON.stringify(body), pick(rng, ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/json; charset=latin1'])];
    case 'empty-body': return [undefined, undefined];
  }
  let text = JSON.stringify(body);
  if (raw !== undefined) {
    const quoted = JSON.stringify(MARK);
    const value = raw.startsWith('[') ? `${raw}1${']'.repeat(raw.length)}` : raw.startsWith('{') ? `${raw}1${'}'.repeat(raw.length / 5)}` : raw;
    text = text.includes(quoted) ? text.replace(quoted, value) : value;
  }
  return [text, json];
}

function withQuery(path: string, pairs: readonly [string, string][]): string {
  return pairs.length === 0 ? path : `${path}?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

/** One bad request for the operation. */
export function generateBadRequest(rng: Random, operation: Operation, pathValues: PathValues): BadRequest {
  const kinds: string[] = ['huge-header', 'bad-company-header', 'unknown-query'];
  if (operation.pathParams.length > 0) kinds.push('bad-path-id', 'bad-path-id');
  if (operation.queryParams.length > 0) kinds.push('bad-query', 'bad-query');
  if (operation.body) kinds.push(...BODY_MUTATIONS, ...BODY_MUTATIONS);
  else kinds.push('unexpected-body');
  const mutation = pick(rng, kinds);

  const badParam = mutation === 'bad-path-id' ? pick(rng, operation.pathParams).name : undefined;
  let path = operation.path;
  for (const { name } of operation.pathParams) {
    const value = name === badParam ? pick(rng, BAD_PATH_IDS) : encodeURIComponent(pathValues(operation, name));
    path = path.replace(`{${name}}`, value);
  }
  const query: [string, string][] = operation.queryParams
    .filter(({ name }) => name === 'company_id')
    .map(({ name }) => [name, pathValues(operation, name)]);
  const headers: Record<string, string> = {};
  if (mutation === 'bad-query') {
    const { name } = pick(rng, operation.queryParams);
    const value = pick(rng, BAD_QUERY_VALUES);
    const others = query.filter(([k]) => k !== name);
    query.length = 0;
    query.push(...others, [name, value]);
    if (rng() < 0.2) query.push([name, '2']); // the same parameter twice
  }
  if (mutation === 'unknown-query') query.push([pick(rng, ['x', '%00', 'a%ZZ', '__proto__', 'limit[]']), pick(rng, ['1', '%00', '%ED%A0%80'])]);
  if (mutation === 'huge-header') headers['x-filler'] = 'f'.repeat(pick(rng, [8_000, 20_000, 70_000]));
  if (mutation === 'bad-company-header') headers['x-service-company'] = pick(rng, ['0x1', '1e0', '2147483648', ' 1', 'guid-1', '-1', 'x'.repeat(300)]);

  let payload: string | undefined;
  if (operation.body) {
    const [text, contentType] = BODY_MUTATIONS.includes(mutation as (typeof BODY_MUTATIONS)[number])
      ? mutateBody(rng, operation.body, mutation)
      : [JSON.stringify(plausible(operation.body)), 'application/json'];
    payload = text;
    if (contentType) headers['content-type'] = contentType;
  } else if (mutation === 'unexpected-body') {
    payload = pick(rng, ['{"a":1}', '\u0000', `${'['.repeat(5000)}${']'.repeat(5000)}`]);
    headers['content-type'] = 'application/json';
  }
  return { mutation, method: operation.method, url: withQuery(path, query), headers, ...(payload === undefined ? {} : { payload }) };
}
