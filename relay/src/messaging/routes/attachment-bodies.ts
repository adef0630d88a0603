// What the send routes need for bodies that carry attachments: a body limit that fits 10 MB of
// base64 (instead of the relay's 1 MiB), base64 strings allowed past the relay's 512 KiB string limit
// where — and only where — attachments hold them, and a memory budget a large body waits for before
// it is read, so many large sends at once hold a bounded amount of memory (byte-budget.ts).
import { ATTACHMENT_LIMITS } from '@ledgerwire/shared';
import type { FastifyRequest } from 'fastify';
import type { LongStrings } from '../../foundation/long-json-strings.js';
import type { ByteBudget } from '../services/byte-budget.js';

/** One send: its attachments' base64 text plus 1 MiB for everything else. */
export const SEND_BODY_LIMIT = ATTACHMENT_LIMITS.maxBase64Length + 1024 * 1024;
/** A batch: up to 100 sends, but at most 3 sends' worth of attachments in one request (documented). */
export const BATCH_BODY_LIMIT = 3 * SEND_BODY_LIMIT;

/** Bodies below this are read at once; only large ones wait for the budget. */
const SMALL_BODY = 256 * 1024;

export const SEND_LONG_STRINGS: LongStrings = Object.freeze({
  max: ATTACHMENT_LIMITS.maxBase64Length,
  allows: (path: readonly (string | number)[]) => path.length === 3 && path[0] === 'attachments' && path[2] === 'content',
});

export const BATCH_LONG_STRINGS: LongStrings = Object.freeze({
  max: ATTACHMENT_LIMITS.maxBase64Length,
  allows: (path: readonly (string | number)[]) => path.length === 5 && path[0] === 'messages' && path[2] === 'attachments' && path[4] === 'content',
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Strings of the body allowed past the relay's string limit (exact-json-body.ts). */
    longJsonStrings?: LongStrings;
  }
}

const releases = new WeakMap<FastifyRequest, () => void>();

/**
 * The options both send routes share (POST /api/messages/send and /batch): the body limit and long
 * strings of their shape, and the hooks that hold a large body's memory from before it is read until
 * the answer is sent or the client goes away.
 */
export function attachmentBodyOptions(budget: ByteBudget, shape: 'send' | 'batch') {
  return {
    bodyLimit: shape === 'send' ? SEND_BODY_LIMIT : BATCH_BODY_LIMIT,
    config: { longJsonStrings: shape === 'send' ? SEND_LONG_STRINGS : BATCH_LONG_STRINGS },
    onRequest: holdBodyMemory(budget),
    onResponse: (request: FastifyRequest, _reply: unknown, done: () => void) => {
      releaseBodyMemory(request);
      done();
    },
    onRequestAbort: (request: FastifyRequest, done: () => void) => {
      releaseBodyMemory(request);
      done();
    },
  };
}

/**
 * onRequest: a large body waits until its bytes fit the budget — twice its length, the text and what
 * is parsed from it — before Fastify reads it; the bytes go back when the answer is sent or the
 * client goes away.
 */
function holdBodyMemory(budget: ByteBudget) {
  return async (request: FastifyRequest): Promise<void> => {
    const length = Number(request.headers['content-length'] ?? 0);
    if (!(length > SMALL_BODY)) return;
    releases.set(request, await budget.take(length * 2));
  };
}

/** Gives the body's bytes back (once; a second call finds nothing). */
function releaseBodyMemory(request: FastifyRequest): void {
  releases.get(request)?.();
  releases.delete(request);
}
