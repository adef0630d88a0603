// The connector protocol's schemas: every message of each direction is accepted, malformed frames are
// refused with a readable problem, and an unknown protocol version is named as such.
import {
  ClientMessage,
  CONNECTOR_PROTOCOL_VERSION,
  parseClientMessage,
  parseServerMessage,
  ServerMessage,
  type ClientMessage as ClientMessageType,
  type ServerMessage as ServerMessageType,
} from '@ledgerwire/shared';
import { describe, expect, it } from 'vitest';

const v = CONNECTOR_PROTOCOL_VERSION;
const books = { running: true, product: 'TallyPrime 5.1', open_companies: [{ guid: 'g-1', name: 'Acme Traders' }] };

const voucher = {
  guid: 'vch-guid-1',
  alter_id: '17',
  master_id: '5',
  voucher_type: 'Sales',
  reserved_name: 'Sales',
  voucher_number: 'S/1',
  voucher_date: '20260401',
  party_ledger: 'Customer A',
  ledger_entries: [{ ledger: 'Sales', amount: '-100.00' }],
  bill_allocations: [{ name: 'S/1', bill_type: 'New Ref', amount: '100.00' }],
  extra_field_from_books: 'kept verbatim',
};
const master = { guid: 'led-1', alter_id: '3', master_id: '12', master_type: 'ledger' as const, name: 'Customer A ', aliases: [] as string[], fields: { parent: 'Sundry Debtors', is_billwise: 'Yes' } };

const everyClientMessage: ClientMessageType[] = [
  { type: 'hello', v, connector_version: '0.1.0', books },
  { type: 'hello', v, connector_version: '0.1.0', books, outcomes: [{ job_id: 'job-0', outcome: { status: 'completed', books_voucher_guid: 'g-0' } }] },
  { type: 'job.ack', v, job_id: 'job-1' },
  { type: 'job.result', v, job_id: 'job-1', outcome: { status: 'completed', books_voucher_guid: 'vch-guid-1', books_alter_id: '18' } },
  {
    type: 'job.result',
    v,
    job_id: 'job-2',
    outcome: { status: 'failed', error_code: 'MASTER_NOT_FOUND', error_label: 'Master not found', error_message: 'Ledger "Customer B" does not exist' },
  },
  { type: 'presence', v, books: { running: false, product: null, open_companies: [] } },
  { type: 'sync.batch', v, batch_id: 'b-1', company_id: 1, kind: 'vouchers', cursor: '120', items: [voucher] },
  { type: 'sync.batch', v, batch_id: 'b-2', company_id: 1, kind: 'masters', cursor: '44', items: [master] },
  { type: 'sync.batch', v, batch_id: 'b-3', company_id: 1, kind: 'deletions', cursor: 'd-7', items: [{ object: 'voucher', guid: 'vch-guid-0' }] },
  { type: 'sync.batch', v, batch_id: 'b-4', company_id: 1, kind: 'report', cursor: 'r-1', items: [{ key: 'stock', rows: [{ item: 'Widget', closing: '4' }] }] },
  { type: 'ping', v, nonce: 'n-1' },
  { type: 'pong', v, nonce: 'n-2' },
  { type: 'error', v, code: 'malformed_message', message: 'job.assign without xml', ref: null },
  { type: 'hello', v, connector_version: '0.2.0', books, features: ['job-runs'] },
  { type: 'jobs.ack', v, job_ids: ['job-1', 'job-2'] },
  {
    type: 'jobs.result',
    v,
    results: [
      { job_id: 'job-1', outcome: { status: 'completed', books_voucher_guid: 'vch-guid-1' } },
      { job_id: 'job-2', outcome: { status: 'failed', error_code: 'UNBALANCED_ENTRIES', error_label: 'Unbalanced', error_message: 'Debits and credits differ' } },
    ],
  },
];

const job = {
  job_id: 'job-1',
  company_id: 1,
  books_company_guid: 'g-1',
  books_company_name: 'Acme Traders',
  job_type: 'voucher',
  event_type: 'sales.create',
  xml: '<ENVELOPE/>',
  remote_id: 'job-1',
  books_voucher_guid: null,
  attempt: 1,
  lease_expires_at: '2026-04-01T10:00:00.000Z',
} as const;

const everyServerMessage: ServerMessageType[] = [
  {
    type: 'welcome',
    v,
    connector_id: 'con_1',
    session_id: 'cses_1',
    server_time: '2026-04-01T09:00:00.000Z',
    heartbeat_ms: 25_000,
    lease_ms: 600_000,
    max_in_flight: 10,
    companies: [{ company_id: 1, books_company_guid: 'g-1', books_company_name: 'Acme Traders' }],
    sync_cursors: [{ company_id: 1, kind: 'vouchers', cursor: '120' }],
  },
  { type: 'job.assign', v, job },
  { type: 'job.result.ack', v, job_id: 'job-1', disposition: 'recorded' },
  { type: 'job.result.ack', v, job_id: 'job-1', disposition: 'duplicate' },
  { type: 'sync.ack', v, batch_id: 'b-1', company_id: 1, kind: 'vouchers', cursor: '120', accepted: 1 },
  { type: 'pairings', v, companies: [] },
  { type: 'ping', v, nonce: 'n-1' },
  { type: 'pong', v, nonce: 'n-1' },
  { type: 'error', v, code: 'company_not_paired', message: 'company 9 is not paired with this connector', ref: 'b-9' },
  { type: 'jobs.assign', v, jobs: [job, { ...job, job_id: 'job-2', remote_id: 'job-2' }] },
  { type: 'jobs.result.ack', v, acks: [{ job_id: 'job-1', disposition: 'recorded' }, { job_id: 'job-2', disposition: 'duplicate' }] },
];

describe('connector protocol messages', () => {
  it('has an example of every member of both unions', () => {
    const clientTypes = ['hello', 'job.ack', 'job.result', 'jobs.ack', 'jobs.result', 'presence', 'sync.batch', 'ping', 'pong', 'error'];
    const serverTypes = ['welcome', 'job.assign', 'job.result.ack', 'jobs.assign', 'jobs.result.ack', 'sync.ack', 'pairings', 'ping', 'pong', 'error'];
    expect(ClientMessage.options).toHaveLength(clientTypes.length);
    expect(ServerMessage.options).toHaveLength(serverTypes.length);
    expect(new Set(everyClientMessage.map((m) => m.type))).toEqual(new Set(clientTypes));
    expect(new Set(everyServerMessage.map((m) => m.type))).toEqual(new Set(serverTypes));
    const kinds = everyClientMessage.flatMap((m) => (m.type === 'sync.batch' ? [m.kind] : []));
    expect(new Set(kinds)).toEqual(new Set(['vouchers', 'masters', 'deletions', 'report']));
  });

  it.each(everyClientMessage.map((m) => [`${m.type}${'kind' in m ? `/${m.kind}` : ''}`, m] as const))('accepts client %s', (_name, message) => {
    const parsed = parseClientMessage(JSON.stringify(message));
    expect(parsed).toEqual({ ok: true, message: expect.objectContaining({ type: message.type, v }) });
  });

  it.each(everyServerMessage.map((m) => [m.type, m] as const))('accepts server %s', (_name, message) => {
    const parsed = parseServerMessage(Buffer.from(JSON.stringify(message)));
    expect(parsed).toEqual({ ok: true, message: expect.objectContaining({ type: message.type, v }) });
  });

  it('keeps books fields beyond the known ones on a pulled voucher, verbatim', () => {
    const parsed = parseClientMessage(JSON.stringify(everyClientMessage[6]));
    expect(parsed.ok && parsed.message.type === 'sync.batch' && parsed.message.kind === 'vouchers' && parsed.message.items[0]?.extra_field_from_books).toBe('kept verbatim');
  });

  it('defaults a master without aliases (older connectors) to an empty list', () => {
    const { aliases: _omitted, ...withoutAliases } = master;
    const parsed = parseClientMessage(JSON.stringify({ type: 'sync.batch', v, batch_id: 'b', company_id: 1, kind: 'masters', cursor: '1', items: [withoutAliases] }));
    expect(parsed.ok && parsed.message.type === 'sync.batch' && parsed.message.kind === 'masters' && parsed.message.items[0]?.aliases).toEqual([]);
  });

  const malformed: [string, string, RegExp][] = [
    ['not JSON', '{"type": "hello"', /not JSON/],
    ['an unknown type', JSON.stringify({ type: 'job.steal', v }), /type/],
    ['a missing version', JSON.stringify({ type: 'job.ack', job_id: 'j' }), /v/],
    ['hello without books', JSON.stringify({ type: 'hello', v, connector_version: '1' }), /books/],
    ['a result without an outcome status', JSON.stringify({ type: 'job.result', v, job_id: 'j', outcome: { books_voucher_guid: 'g' } }), /outcome/],
    [
      'a failure with a lower-case code',
      JSON.stringify({ type: 'job.result', v, job_id: 'j', outcome: { status: 'failed', error_code: 'oops', error_label: 'x', error_message: 'y' } }),
      /error_code/,
    ],
    ['a batch of an unknown kind', JSON.stringify({ type: 'sync.batch', v, batch_id: 'b', company_id: 1, kind: 'ledgers', cursor: '1', items: [] }), /kind/],
    ['a batch with a books GUID as company', JSON.stringify({ type: 'sync.batch', v, batch_id: 'b', company_id: 'g-1', kind: 'vouchers', cursor: '1', items: [] }), /company_id/],
    ['a voucher without its alter id', JSON.stringify({ type: 'sync.batch', v, batch_id: 'b', company_id: 1, kind: 'vouchers', cursor: '1', items: [{ ...voucher, alter_id: undefined }] }), /alter_id/],
    ['a voucher date in ISO form', JSON.stringify({ type: 'sync.batch', v, batch_id: 'b', company_id: 1, kind: 'vouchers', cursor: '1', items: [{ ...voucher, voucher_date: '2026-04-01' }] }), /voucher_date/],
    ['a batch without a cursor', JSON.stringify({ type: 'sync.batch', v, batch_id: 'b', company_id: 1, kind: 'deletions', items: [] }), /cursor/],
    ['an array', '[]', /expected object|Invalid input/i],
    ['an empty run of results', JSON.stringify({ type: 'jobs.result', v, results: [] }), /results/],
    ['a run longer than 1000 jobs', JSON.stringify({ type: 'jobs.ack', v, job_ids: Array.from({ length: 1001 }, (_, i) => `job-${i}`) }), /job_ids/],
  ];

  it.each(malformed)('refuses %s as malformed', (_name, frame, problem) => {
    const parsed = parseClientMessage(frame);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.code).toBe('malformed_message');
      expect(parsed.problem).toMatch(problem);
    }
  });

  it('names the batch or job a refused message carried, so its sender knows which one was refused', () => {
    const batch = parseClientMessage(JSON.stringify({ type: 'sync.batch', v, batch_id: 'sb_7', company_id: 1, kind: 'vouchers', cursor: '1', items: [{ ...voucher, voucher_date: '' }] }));
    expect(batch).toEqual({ ok: false, code: 'malformed_message', problem: 'items.0.voucher_date: must be YYYYMMDD', ref: 'sb_7' });
    expect(parseClientMessage(JSON.stringify({ type: 'job.result', v, job_id: 'job-9', outcome: {} }))).toMatchObject({ ok: false, ref: 'job-9' });
    expect(parseClientMessage(JSON.stringify({ type: 'job.steal', v }))).not.toHaveProperty('ref');
  });

  it('names an unknown protocol version as unsupported, in both directions', () => {
    const client = parseClientMessage(JSON.stringify({ type: 'hello', v: 2, connector_version: '9.0.0', books }));
    const server = parseServerMessage(JSON.stringify({ type: 'ping', v: 0, nonce: 'n' }));
    expect(client).toMatchObject({ ok: false, code: 'unsupported_version', problem: expect.stringMatching(/version 2/) });
    expect(server).toMatchObject({ ok: false, code: 'unsupported_version' });
  });

  it('refuses a server message on the client parser and the other way round', () => {
    expect(parseClientMessage(JSON.stringify(everyServerMessage[1])).ok).toBe(false);
    expect(parseServerMessage(JSON.stringify(everyClientMessage[0])).ok).toBe(false);
  });

  it('reads a frame that arrives in fragments', () => {
    const text = JSON.stringify({ type: 'ping', v, nonce: 'ünïcode-✓' });
    const bytes = Buffer.from(text);
    const parsed = parseClientMessage([bytes.subarray(0, 31), bytes.subarray(31)]);
    expect(parsed).toEqual({ ok: true, message: { type: 'ping', v, nonce: 'ünïcode-✓' } });
  });
});
