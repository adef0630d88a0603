// The relay link against a real relay: hello → welcome, reconnecting with full-jitter backoff after
// the connection drops (a new welcome each time, which is when unacknowledged results are re-reported),
// and a refused credential explained in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@ledgerwire/test-kit';
import { fullJitterBackoff, reconnectPolicy } from '../src/core/relay/backoff.js';
import { enrolWithRelay } from '../src/core/relay/enrolment.js';
import { RelayLink, type RelayLinkState } from '../src/core/relay/relay-link.js';
import { createLogger } from '../src/core/support/logger.js';

import { startCustomerRelay, type CustomerRelay } from './helpers/customer-relay.js';

let relay: CustomerRelay;
const quiet = createLogger([], 'silent');

beforeAll(async () => {
  relay = await startCustomerRelay();
});
afterAll(async () => relay?.close());

function link(credential: string): RelayLink {
  return new RelayLink({
    relayUrl: relay.baseUrl,
    credential,
    connectorVersion: '0.1.0',
    books: () => ({ running: true, open_companies: [{ guid: 'g-1', name: 'Books One' }] }),
    log: quiet,
    reconnectBaseMs: 20,
    reconnectCapMs: 200,
  });
}

describe('full-jitter backoff', () => {
  it('draws each delay between 0 and min(cap, base·2^n), and starts over after a reset', () => {
    const top = fullJitterBackoff(100, 1000, () => 0.999999);
    expect([1, 2, 3, 4, 5, 6].map(() => top.next())).toEqual([99, 199, 399, 799, 999, 999]);
    top.reset();
    expect(top.next()).toBe(99);
    const bottom = fullJitterBackoff(100, 1000, () => 0);
    expect([bottom.next(), bottom.next()]).toEqual([0, 0]);
  });
});

describe('reconnect policy', () => {
  it('climbs to the cap after lost connections, but stays within two seconds while the relay restarts', () => {
    const policy = reconnectPolicy(500, 30_000, () => 0.999999);
    // A dropped network (1006): 0.5, 1, 2, 4, 8, 16 s ceilings, then the cap.
    expect([1, 2, 3, 4, 5, 6, 7].map(() => policy.delayAfterClose(1006))).toEqual([499, 999, 1999, 3999, 7999, 15999, 29999]);
    policy.connected();
    // The relay going away (1001), then refused connections (1006) while it starts again.
    expect([1001, 1006, 1006, 1006, 1006, 1006].map((code) => policy.delayAfterClose(code))).toEqual([499, 999, 1999, 1999, 1999, 1999]);
    // Back to the usual climb once connected, and after some forty fast tries if the relay never returns.
    policy.connected();
    expect(policy.delayAfterClose(1006)).toBe(499);
    const stuck = reconnectPolicy(500, 30_000, () => 0.999999);
    const delays = [stuck.delayAfterClose(1012), ...Array.from({ length: 45 }, () => stuck.delayAfterClose(1006))];
    expect(Math.max(...delays.slice(0, 40))).toBe(1999);
    expect(delays.at(-1)).toBeGreaterThan(1999);
  });
});

describe('relay link', () => {
  it('says hello, is welcomed, and reconnects with a new welcome after the connection drops', async () => {
    const enrolled = await enrolWithRelay({ relayUrl: relay.baseUrl, token: relay.customerToken, machineName: 'link-pc', version: '0.1.0' });
    const subject = link(enrolled.credential);
    const states: RelayLinkState[] = [];
    let welcomes = 0;
    subject.onStateChange((state) => states.push(state));
    subject.onWelcome((welcome) => {
      welcomes += 1;
      expect(welcome.connector_id).toBe(enrolled.connectorId);
    });
    subject.start();
    await eventually('the first welcome', () => welcomes === 1);
    expect(subject.state).toBe('online');
    subject.dropConnection();
    await eventually('a welcome after reconnecting', () => welcomes === 2);
    expect(states).toEqual(['connecting', 'online', 'offline', 'connecting', 'online']);
    await subject.stop();
    expect(subject.state).toBe('stopped');
  });

  it('explains a refused credential and keeps trying without crashing', async () => {
    const subject = link('con_unknown:not-a-secret');
    subject.start();
    await eventually('the refusal to be explained', () => subject.lastError?.includes('refused this connector'));
    expect(subject.state).not.toBe('online');
    await subject.stop();
  });
});
