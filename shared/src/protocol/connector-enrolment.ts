// The one HTTP call of the connector protocol: enrolment. The end user pastes the customer token into
// the connector, which registers its machine and receives its own long-lived credential (shown once).
import { z } from 'zod';

export const ConnectorEnrolIn = z.object({
  /** The customer's current token (the enrolment secret). */
  token: z.string().min(1).max(200),
  /** How the machine is known in the API (`GET /api/v1/connectors/{machine}/jobs`); unique per customer. */
  machine_name: z
    .string()
    .min(1)
    .max(200)
    .refine((name) => !/[/\p{Cc}]/u.test(name), 'must not contain control characters or "/"'),
  version: z.string().min(1).max(50),
});
export type ConnectorEnrolIn = z.infer<typeof ConnectorEnrolIn>;

export const ConnectorEnrolOut = z.object({
  success: z.literal(true),
  connector_id: z.string(),
  /** `<connector_id>:<secret>`: the Bearer credential of the socket. Only its hash is kept by the relay. */
  credential: z.string(),
  /** True when this machine was enrolled before: same connector (pairings kept), new credential. */
  reenrolled: z.boolean(),
});
export type ConnectorEnrolOut = z.infer<typeof ConnectorEnrolOut>;
