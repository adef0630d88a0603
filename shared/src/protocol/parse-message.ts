// Validates one WebSocket frame (text) against a direction's union. Never throws: a frame that is not
// JSON, not an object, of an unknown type or version, or malformed comes back as a readable problem.
import type { z } from 'zod';
import { ClientMessage } from './client-messages.js';
import { CONNECTOR_PROTOCOL_VERSION } from './protocol-common.js';
import { ServerMessage } from './server-messages.js';

/** What a WebSocket library hands over for one message (ws gives Buffer, Buffer[] or ArrayBuffer). */
export type Frame = string | ArrayBuffer | Uint8Array | readonly Uint8Array[];

export type ParsedMessage<T> =
  | { ok: true; message: T }
  /** `ref`: the batch_id or job_id the frame carried, so the sender learns which of its messages was refused. */
  | { ok: false; code: 'malformed_message' | 'unsupported_version'; problem: string; ref?: string };

function refIn(data: object): string | undefined {
  for (const key of ['batch_id', 'job_id'] as const) {
    const value = (data as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.length > 0 && value.length <= 100) return value;
  }
  return undefined;
}

function parseWith<T>(schema: z.ZodType<T>, frame: Frame): ParsedMessage<T> {
  let data: unknown;
  try {
    data = JSON.parse(frameText(frame));
  } catch {
    return { ok: false, code: 'malformed_message', problem: 'the frame is not JSON' };
  }
  if (typeof data === 'object' && data !== null && 'v' in data && data.v !== CONNECTOR_PROTOCOL_VERSION) {
    return {
      ok: false,
      code: 'unsupported_version',
      problem: `protocol version ${JSON.stringify(data.v)} is not supported (this side speaks ${CONNECTOR_PROTOCOL_VERSION})`,
    };
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  const ref = typeof data === 'object' && data !== null ? refIn(data) : undefined;
  return { ok: false, code: 'malformed_message', problem: `${where}${issue?.message ?? 'invalid message'}`, ...(ref ? { ref } : {}) };
}

// TextDecoder rather than Buffer: shared code also runs in the browser.
const utf8 = new TextDecoder('utf-8');

function isFragmentList(frame: Frame): frame is readonly Uint8Array[] {
  return Array.isArray(frame);
}

function frameText(frame: Frame): string {
  if (typeof frame === 'string') return frame;
  if (isFragmentList(frame)) {
    const decoder = new TextDecoder('utf-8');
    return frame.map((part) => decoder.decode(part, { stream: true })).join('') + decoder.decode();
  }
  return utf8.decode(frame);
}

/** A frame from the connector, as the relay receives it. */
export function parseClientMessage(frame: Frame): ParsedMessage<ClientMessage> {
  return parseWith(ClientMessage, frame);
}

/** A frame from the relay, as the connector receives it. */
export function parseServerMessage(frame: Frame): ParsedMessage<ServerMessage> {
  return parseWith(ServerMessage, frame);
}
