import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { insertConnector, provisionTenant, startBridgeRelay } from '../bridge/bridge-test-kit.js';
import { call, describeOnDatabases, startRelay, TEST_OPERATOR_TOKEN, type TestRelay } from '@ledgerwire/test-kit';
import { auditLog, createOperator, operatorsForEveryRole } from './operator-test-kit.js';

describeOnDatabases('operator accounts', (kind) => {
  let relay: TestRelay | undefined;
  afterEach(async () => {
    await relay?.close();
    relay = undefined;
  });

  it('the bootstrap token creates the first admin; each account has its own lwop_ token kept only as SHA-256; whoami names it', async () => {
    relay = await startBridgeRelay(kind);
    const { body: created } = await call(relay.app, 'POST', '/admin/v1/operators', 201, { token: TEST_OPERATOR_TOKEN, payload: { name: 'Ada Admin', role: 'admin' } });
    expect(created.token).toMatch(/^lwop_[A-Za-z0-9_-]{43}$/);
    expect(created.operator).toMatchObject({ id: expect.stringMatching(/^opr_/), name: 'Ada Admin', role: 'admin', status: 'active', created_by: 'bootstrap' });
    const stored = await relay.app.database.db.selectFrom('operator_accounts').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(created.token);
    expect(stored[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const viewer = await createOperator(relay, 'viewer', 'Vic Viewer', created.token);
    const { body: who } = await call(relay.app, 'GET', '/admin/v1/whoami', 200, { token: viewer.token });
    expect(who.operator).toEqual({ kind: 'account', id: viewer.id, name: 'Vic Viewer', role: 'viewer', token_source: 'account' });
    const { body: list } = await call(relay.app, 'GET', '/admin/v1/operators', 200, { token: created.token });
    expect(list.operators.map((o: { name: string }) => o.name)).toEqual(['Ada Admin', 'Vic Viewer']);
    expect(JSON.stringify(list)).not.toContain(viewer.token);

    await call(relay.app, 'POST', '/admin/v1/operators', 400, { token: created.token, payload: { name: 'X', role: 'owner' } });
    await call(relay.app, 'POST', '/admin/v1/operators', 400, { token: created.token, payload: { name: '', role: 'viewer' } });
    const { body: missing } = await call(relay.app, 'DELETE', '/admin/v1/operators/opr_nobody', 404, { token: created.token });
    expect(missing.error.code).toBe('operator_account_not_found');
  });

  it('a viewer cannot pair or disconnect (403); support can; every pairing and disconnect is in the audit log with who did it', async () => {
    relay = await startBridgeRelay(kind);
    const ops = await operatorsForEveryRole(relay);
    const tenant = await provisionTenant(relay);
    const connectorId = await insertConnector(relay, tenant, { openCompanies: [{ guid: 'guid-1', name: 'Sharma (Books)' }] });
    const pairBody = { connector_id: connectorId, books_company_guid: 'guid-1' };
    const pairUrl = `/admin/v1/companies/${tenant.companyId}/pair`;
    const disconnectUrl = `/admin/v1/companies/${tenant.companyId}/disconnect`;

    const { body: refused } = await call(relay.app, 'POST', pairUrl, 403, { token: ops.viewer.token, payload: pairBody });
    expect(refused).toEqual({
      success: false,
      error: { code: 'operator_role_insufficient', message: 'This needs the support role; "Vic Viewer" has the viewer role', details: [] },
    });
    await call(relay.app, 'POST', disconnectUrl, 403, { token: ops.viewer.token });
    const { body: company } = await call(relay.app, 'GET', `/admin/v1/companies/${tenant.companyId}`, 200, { token: ops.viewer.token });
    expect(company.company.connector_id ?? null).toBeNull();

    await call(relay.app, 'POST', pairUrl, 200, { token: ops.support.token, payload: pairBody, headers: { 'user-agent': 'support-browser/1.0' } });
    await call(relay.app, 'POST', disconnectUrl, 200, { token: ops.support.token });
    await call(relay.app, 'POST', pairUrl, 200, { token: TEST_OPERATOR_TOKEN, payload: pairBody });

    const { entries } = await auditLog(relay, ops.viewer.token, `?object_type=company&object_id=${tenant.companyId}`);
    expect(entries.map((e) => [e.action, e.actor_id, e.outcome, e.status])).toEqual([
      ['company.pair', 'bootstrap', 'succeeded', 200],
      ['company.disconnect', ops.support.id, 'succeeded', 200],
      ['company.pair', ops.support.id, 'succeeded', 200],
      ['company.disconnect', ops.viewer.id, 'refused', 403],
      ['company.pair', ops.viewer.id, 'refused', 403],
    ]);
    const supportPair = entries[2];
    expect(supportPair).toMatchObject({
      actor_name: 'Sam Support',
      actor_role: 'support',
      object_type: 'company',
      object_id: String(tenant.companyId),
      ip: '127.0.0.1',
      user_agent: 'support-browser/1.0',
      request_id: expect.stringMatching(/^req_/),
      details: { params: { id: tenant.companyId }, body: pairBody },
    });
    expect(Date.parse(supportPair?.at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a revoked or rotated token is refused at once, also by another relay process on the same database', async () => {
    relay = await startBridgeRelay(kind);
    const ops = await operatorsForEveryRole(relay);
    const other = (await startRelay({ config: relay.config })).app;
    try {
      await call(other, 'GET', '/admin/v1/whoami', 200, { token: ops.support.token });
      const { body: revoked } = await call(relay.app, 'DELETE', `/admin/v1/operators/${ops.support.id}`, 200, { token: ops.admin.token });
      expect(revoked.operator).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
      for (const app of [relay.app, other]) {
        const { body } = await call(app, 'GET', '/admin/v1/whoami', 401, { token: ops.support.token });
        expect(body.error.code).toBe('operator_token_invalid');
      }
      const { body: again } = await call(relay.app, 'POST', `/admin/v1/operators/${ops.support.id}/rotate-token`, 409, { token: ops.admin.token });
      expect(again.error.code).toBe('operator_account_revoked');

      const { body: rotated } = await call(other, 'POST', `/admin/v1/operators/${ops.viewer.id}/rotate-token`, 200, { token: ops.admin.token });
      expect(rotated.token).not.toBe(ops.viewer.token);
      await call(relay.app, 'GET', '/admin/v1/whoami', 401, { token: ops.viewer.token });
      await call(relay.app, 'GET', '/admin/v1/whoami', 200, { token: rotated.token });
    } finally {
      await other.close();
    }
    const { entries } = await auditLog(relay, ops.admin.token, '?object_type=operator');
    expect(entries.map((e) => [e.action, e.object_id])).toEqual([
      ['operator.rotate_token', ops.viewer.id],
      ['operator.rotate_token', ops.support.id],
      ['operator.revoke', ops.support.id],
      ['operator.create', ops.viewer.id],
      ['operator.create', ops.support.id],
      ['operator.create', ops.admin.id],
    ]);
  });

  it('only an admin manages operators; support rotates customer tokens; no secret reaches the audit log', async () => {
    relay = await startBridgeRelay(kind);
    const ops = await operatorsForEveryRole(relay);
    await call(relay.app, 'POST', '/admin/v1/operators', 403, { token: ops.support.token, payload: { name: 'Me Too', role: 'admin' } });
    await call(relay.app, 'GET', '/admin/v1/operators', 403, { token: ops.viewer.token });
    await call(relay.app, 'POST', '/admin/v1/applications', 403, { token: ops.support.token, payload: { name: 'Nope' } });

    const tenant = await provisionTenant(relay);
    const { body: rotated } = await call(relay.app, 'POST', `/admin/v1/customers/${tenant.customerId}/rotate-token`, 200, { token: ops.support.token });
    const { body: key } = await call(relay.app, 'POST', `/admin/v1/applications/${tenant.applicationId}/keys`, 201, {
      token: ops.admin.token,
      payload: { environment: 'test', capabilities: [] },
    });
    const { entries } = await auditLog(relay, ops.admin.token);
    const text = JSON.stringify(entries);
    for (const secret of [rotated.customer.token, key.secret, key.credential, ops.admin.token, ops.support.token, ops.viewer.token]) expect(text).not.toContain(secret);
    expect(entries.find((e) => e.action === 'customer.rotate_token')).toMatchObject({ actor_id: ops.support.id, object_type: 'customer', object_id: tenant.customerId });
    expect(entries.find((e) => e.action === 'api_key.create')).toMatchObject({ actor_id: ops.admin.id, object_type: 'api_key', object_id: key.key_id });
    expect(entries.find((e) => e.action === 'operator.create' && e.actor_id === ops.support.id)).toMatchObject({ outcome: 'refused', object_id: null });
  });

  it('the audit log filters by actor, action and time, pages newest first, and refuses updates and deletes in the database', async () => {
    relay = await startBridgeRelay(kind);
    const admin = await createOperator(relay, 'admin', 'Ada Admin');
    for (let i = 0; i < 5; i += 1) await createOperator(relay, 'viewer', `Viewer ${i}`, admin.token);

    const byAdmin = await auditLog(relay, admin.token, `?actor=${admin.id}&action=operator.create`);
    expect(byAdmin.entries.map((e) => e.details.body.name)).toEqual(['Viewer 4', 'Viewer 3', 'Viewer 2', 'Viewer 1', 'Viewer 0']);
    const first = await auditLog(relay, admin.token, '?limit=4');
    expect(first.entries).toHaveLength(4);
    expect(first.next_before_id).toBe(first.entries[3]?.id);
    const second = await auditLog(relay, admin.token, `?limit=4&before_id=${first.next_before_id}`);
    expect(second.entries.map((e) => e.actor_id)).toEqual([admin.id, 'bootstrap']);
    expect(second.next_before_id).toBeNull();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await auditLog(relay, admin.token, `?since=${encodeURIComponent(future)}`)).entries).toEqual([]);
    expect((await auditLog(relay, admin.token, `?until=${encodeURIComponent(future)}`)).entries).toHaveLength(6);
    const { body: bad } = await call(relay.app, 'GET', '/admin/v1/audit-log?since=yesterday', 400, { token: admin.token });
    expect(bad.error.details).toEqual([expect.objectContaining({ field: 'since' })]);

    const db = relay.app.database.db;
    await expect(sql`update operator_audit_log set actor_id = 'someone-else'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from operator_audit_log`.execute(db)).rejects.toThrow(/append-only/);
    expect((await auditLog(relay, admin.token, '?limit=200')).entries).toHaveLength(6);
  });
});

