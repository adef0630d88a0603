// The operations of the relay's own OpenAPI document (GET /docs/json): what the bad-input suite
// drives. Each operation keeps its path template, its path and query parameters with their schemas,
// its body schema ($refs resolved) and the credential family it needs.

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  $ref?: string;
  default?: unknown;
};

export type Credential = 'operator' | 'messaging' | 'bridge' | 'connector' | 'none';

export type Operation = Readonly<{
  method: string;
  /** `/api/v1/companies/{id}/health` */
  path: string;
  pathParams: readonly { name: string; schema: JsonSchema }[];
  queryParams: readonly { name: string; schema: JsonSchema }[];
  body: JsonSchema | undefined;
  credential: Credential;
}>;

type OpenApiDocument = {
  paths: Record<string, Record<string, {
    security?: Record<string, unknown>[];
    parameters?: { in: string; name: string; schema?: JsonSchema }[];
    requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  }>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

const SCHEMES: Record<string, Credential> = {
  operatorToken: 'operator',
  messagingApiKey: 'messaging',
  bridgeCredential: 'bridge',
  connectorCredential: 'connector',
};

/** The credential an operation needs: its security scheme, or the connector's for the connector routes the document leaves without one. */
function credentialOf(path: string, security: Record<string, unknown>[] | undefined): Credential {
  const scheme = Object.keys(security?.[0] ?? {})[0];
  if (scheme && SCHEMES[scheme]) return SCHEMES[scheme];
  if (path.startsWith('/api/v1/connectors/') && path !== '/api/v1/connectors/enroll') return 'connector';
  return 'none';
}

/** Inlines `#/components/schemas/X` references (the document's own; cycles stop at a depth). */
function resolve(schema: JsonSchema | undefined, components: Record<string, JsonSchema>, depth = 0): JsonSchema | undefined {
  if (!schema || depth > 12) return schema;
  if (schema.$ref) return resolve(components[schema.$ref.split('/').pop() ?? ''], components, depth + 1);
  const out: JsonSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolve(v, components, depth + 1) ?? {}]));
  }
  if (schema.items) out.items = resolve(schema.items, components, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (list) out[key] = list.map((s) => resolve(s, components, depth + 1) ?? {});
  }
  return out;
}

/** Every operation of the document, in document order (the order is part of the seeded sequence). */
export function operationsOf(document: unknown): Operation[] {
  const doc = document as OpenApiDocument;
  const components = doc.components?.schemas ?? {};
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters = op.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: resolve(op.requestBody?.content?.['application/json']?.schema, components),
        credential: credentialOf(path, op.security),
      });
    }
  }
  return operations;
}
