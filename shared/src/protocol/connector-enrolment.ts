// The one HTTP call of the connector protocol: enrolment. The end user types the customer token or a
// connect session's setup code into the connector, which registers its machine and receives its own long-lived credential (shown once).
import { z } from 'zod';

export const ConnectorEnrolIn = z.object({
  /** The customer's current token (`lwct_…`), or a connect session's setup code (`K7QP-M3XD`; case, spaces and dash free). */
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
