// Enrolment that cannot succeed says why in a person's words: an address that is no relay, nothing
// answering, https to a server that speaks plain http — not a socket error code or an OpenSSL string.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolWithRelay } from '../src/core/relay/enrolment.js';

let notARelay: http.Server;
let port = 0;

beforeAll(async () => {
  notARelay = http.createServer((_request, response) => {
    response.statusCode = 404;
    response.end('not found');
  });
  await new Promise<void>((resolve) => notARelay.listen(0, '127.0.0.1', resolve));
  port = (notARelay.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => notARelay.close(() => resolve())));

const enrol = (relayUrl: string) => enrolWithRelay({ relayUrl, token: 'lwct_whatever', machineName: 'PC', version: '0.0.0' });

describe('enrolment problems in words', () => {
  it('an address that answers 404 is no relay (not a token problem)', async () => {
    await expect(enrol(`http://127.0.0.1:${port}/foo`)).rejects.toThrow(`there is no Ledgerwire relay at http://127.0.0.1:${port}/foo (it answered HTTP 404 to enrolment); check the relay address`);
  });

  it('nothing answering, and https to a plain-http server, say what to check', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(enrol(`http://127.0.0.1:${closedPort}`)).rejects.toThrow(
      `cannot reach the relay at http://127.0.0.1:${closedPort}: nothing answers at 127.0.0.1:${closedPort}; check the address and that the relay is running`,
    );
    await expect(enrol(`https://127.0.0.1:${port}`)).rejects.toThrow(/does not answer https there; if the relay runs without TLS \(on this machine\), use http:\/\//);
  });
});
