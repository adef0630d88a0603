// Operator accounts for tests: the bootstrap token creates one account per role through the API.
import type { OperatorRole } from '@ledgerwire/shared';
import { call, TEST_OPERATOR_TOKEN, type TestRelay } from '@ledgerwire/test-kit';

export type TestOperator = Readonly<{ id: string; name: string; role: OperatorRole; token: string }>;

export async function createOperator(relay: TestRelay, role: OperatorRole, name = `${role} person`, asToken = TEST_OPERATOR_TOKEN): Promise<TestOperator> {
  const { body } = await call(relay.app, 'POST', '/admin/v1/operators', 201, { token: asToken, payload: { name, role } });
  return { id: body.operator.id, name, role, token: body.token };
}

export async function operatorsForEveryRole(relay: TestRelay): Promise<Record<OperatorRole, TestOperator>> {
  const admin = await createOperator(relay, 'admin', 'Ada Admin');
  return {
    admin,
    support: await createOperator(relay, 'support', 'Sam Support', admin.token),
    viewer: await createOperator(relay, 'viewer', 'Vic Viewer', admin.token),
  };
}

/** The audit log as the given operator reads it. */
export async function auditLog(relay: TestRelay, token: string, query = ''): Promise<{ entries: Array<Record<string, any>>; next_before_id: number | null }> {
  const { body } = await call(relay.app, 'GET', `/admin/v1/audit-log${query}`, 200, { token });
  return body;
}
