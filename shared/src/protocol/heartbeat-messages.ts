// Messages both directions share: the application-level heartbeat (ping/pong) and the protocol error.
import { z } from 'zod';
import { ProtocolVersion } from './protocol-common.js';

/** Either side may ping; the other answers pong with the same nonce. Any frame counts as liveness. */
export const PingMessage = z.object({
  type: z.literal('ping'),
  v: ProtocolVersion,
  nonce: z.string().min(1).max(100),
});
export type PingMessage = z.infer<typeof PingMessage>;

export const PongMessage = z.object({
  type: z.literal('pong'),
  v: ProtocolVersion,
  nonce: z.string().min(1).max(100),
});
export type PongMessage = z.infer<typeof PongMessage>;

/** Stable codes a peer can branch on; the message is for people. */
export const ProtocolErrorCode = z.enum([
  'malformed_message',
  'unsupported_version',
  'hello_required',
  'company_not_paired',
  'unknown_job',
  'internal_error',
  'replaced',
]);
export type ProtocolErrorCode = z.infer<typeof ProtocolErrorCode>;

export const ProtocolErrorMessage = z.object({
  type: z.literal('error'),
  v: ProtocolVersion,
  code: ProtocolErrorCode,
  message: z.string().max(2000),
  /** The job_id or batch_id the error is about, when there is one. */
  ref: z.string().max(100).nullable().optional(),
});
export type ProtocolErrorMessage = z.infer<typeof ProtocolErrorMessage>;
