// What of a request body goes into the audit log: the fields that say what was done, never a
// secret (any key naming a token, secret, password, credential or key material is dropped), and
// long values cut short so a template body cannot swell the log.
const SECRET_KEY = /secret|token|password|credential|api_?key|authorization|signing/i;
const MAX_STRING = 200;
const MAX_ITEMS = 20;
const MAX_DEPTH = 3;

export function auditDetails(params: unknown, body: unknown): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  const cleanParams = sanitise(params, 0);
  if (isRecord(cleanParams) && Object.keys(cleanParams).length > 0) details['params'] = cleanParams;
  const cleanBody = sanitise(body, 0);
  if (cleanBody !== undefined && !(isRecord(cleanBody) && Object.keys(cleanBody).length === 0)) details['body'] = cleanBody;
  return details;
}

function sanitise(value: unknown, depth: number): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (depth >= MAX_DEPTH) return '[nested]';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => sanitise(item, depth + 1));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (SECRET_KEY.test(key)) continue;
      out[key] = sanitise(item, depth + 1);
    }
    return out;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
