// Enrolment: the customer token or a connect link's setup code (what the end user was given) buys this
// machine its own credential. The relay tells them apart by shape (`lwct_…` is a token); neither is
// stored here; the credential is, in the 0600 local database.
import { ConnectorEnrolOut } from '@ledgerwire/shared';
import { apiUrl, relayBaseUrl } from './relay-urls.js';
import { relayProblem } from './relay-api.js';
import { relayHttp, type RelayHttpResponse } from './relay-http.js';
import { unreachableRelay } from './unreachable-relay.js';

export type EnrolResult = Readonly<{ relayUrl: string; connectorId: string; credential: string }>;

export class EnrolmentError extends Error {}

export async function enrolWithRelay(input: { relayUrl: string; token: string; machineName: string; version: string }): Promise<EnrolResult> {
  const relayUrl = relayBaseUrl(input.relayUrl);
  let response: RelayHttpResponse;
  try {
    response = await relayHttp(apiUrl(relayUrl, '/api/v1/connectors/enroll'), {
      method: 'POST',
      json: { token: input.token.trim(), machine_name: input.machineName, version: input.version },
      timeoutMs: 30_000,
    });
  } catch (error) {
    throw new EnrolmentError(unreachableRelay(relayUrl, error));
  }
  const { body } = response;
  if (response.status < 200 || response.status > 299) {
    const detail = relayProblem(body, response.status);
    if (response.status === 404) {
      throw new EnrolmentError(`there is no Ledgerwire relay at ${relayUrl} (it answered ${detail} to enrolment); check the relay address`);
    }
    const isToken = input.token.trim().startsWith('lwct_');
    if ((response.status === 401 || response.status === 403) && isToken) {
      throw new EnrolmentError(`the relay did not accept this customer token (${detail}); check it was pasted whole, or ask for a fresh one`);
    }
    if (response.status === 401 || response.status === 403) {
      // The relay's words already say what to do (type it as given, or ask for a new link).
      throw new EnrolmentError(`the relay did not accept this setup code: ${detail}`);
    }
    if (response.status === 429) throw new EnrolmentError(`the relay refused for now: ${detail}`);
    throw new EnrolmentError(`enrolment failed: ${detail}`);
  }
  const parsed = ConnectorEnrolOut.safeParse(body);
  if (!parsed.success) throw new EnrolmentError('the relay answered enrolment with something unexpected');
  return { relayUrl, connectorId: parsed.data.connector_id, credential: parsed.data.credential };
}
