// The relay's HTTP calls a connector makes with its own credential: the companies of its customer and
// pairing one of them to a books company on this machine (or unpairing it).
import { ConnectorCompaniesOut, ConnectorPairingOut, type ConnectorCompanyOut, type ConnectorPairingIn } from '@ledgerwire/shared';
import { z } from 'zod';
import { relayHttp, type RelayHttpResponse } from './relay-http.js';
import { unreachableRelay } from './unreachable-relay.js';
import { apiUrl } from './relay-urls.js';

const ErrorBody = z.object({ error: z.object({ message: z.string() }) });

/** The relay's error message from an error body, or the HTTP status. */
export function relayProblem(body: unknown, status: number): string {
  const parsed = ErrorBody.safeParse(body);
  return parsed.success ? parsed.data.error.message : `HTTP ${status}`;
}

export class RelayApiError extends Error {
  constructor(message: string, readonly status: number | null) {
    super(message);
  }
}

export class RelayApi {
  constructor(private readonly relayUrl: string, private readonly credential: string) {}

  async companies(): Promise<ConnectorCompanyOut[]> {
    const body = await this.call('GET', '/api/v1/connectors/companies');
    const parsed = ConnectorCompaniesOut.safeParse(body);
    if (!parsed.success) throw new RelayApiError('the relay listed companies in an unexpected shape', null);
    return parsed.data.companies;
  }

  async pair(pairing: ConnectorPairingIn): Promise<ConnectorCompanyOut> {
    const body = await this.call('POST', '/api/v1/connectors/pairings', pairing);
    const parsed = ConnectorPairingOut.safeParse(body);
    if (!parsed.success) throw new RelayApiError('the relay answered the pairing in an unexpected shape', null);
    return parsed.data.company;
  }

  async unpair(companyId: number): Promise<void> {
    await this.call('DELETE', `/api/v1/connectors/pairings/${companyId}`);
  }

  private async call(method: string, path: string, payload?: unknown): Promise<unknown> {
    let response: RelayHttpResponse;
    try {
      response = await relayHttp(apiUrl(this.relayUrl, path), {
        method,
        headers: { authorization: `Bearer ${this.credential}` },
        ...(payload === undefined ? {} : { json: payload }),
        timeoutMs: 30_000,
      });
    } catch (error) {
      throw new RelayApiError(unreachableRelay(this.relayUrl, error), null);
    }
    if (response.status < 200 || response.status > 299) throw new RelayApiError(relayProblem(response.body, response.status), response.status);
    return response.body;
  }
}
