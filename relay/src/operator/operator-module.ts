// Wires operator accounts into the app: the account service and audit log (reachable as
// app.operators), the root hook that authenticates and authorises every /admin/v1 request, and the
// hook that writes the audit log. Call before any /admin/v1 route plugin is registered.
import type { FastifyInstance } from 'fastify';
import { AuditLogRepository } from './audit/audit-log-repository.js';
import { registerAuditRecorder } from './audit/audit-recorder.js';
import { registerOperatorAccess } from './operator-access.js';
import { hasOperatorRouteRule, isOperatorRoute } from './operator-route-roles.js';
import { OperatorAccountRepository } from './operator-account-repository.js';
import { OperatorAccountService } from './operator-account-service.js';

export type OperatorModule = Readonly<{
  accounts: OperatorAccountService;
  auditLog: AuditLogRepository;
  /** Every /admin/v1 route registered (method, url), for the role-matrix test and the start-up check. */
  routes: ReadonlyArray<Readonly<{ method: string; url: string }>>;
}>;

declare module 'fastify' {
  interface FastifyInstance {
    operators: OperatorModule;
  }
}

export function registerOperatorAccounts(app: FastifyInstance): void {
  const db = app.relay.database.db;
  const routes: Array<{ method: string; url: string }> = [];
  const operators: OperatorModule = Object.freeze({
    accounts: new OperatorAccountService(new OperatorAccountRepository(db), app.relay.operatorToken),
    auditLog: new AuditLogRepository(db),
    routes,
  });
  app.addHook('onRoute', (route) => {
    if (!isOperatorRoute(route.url)) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({ method, url: route.url });
      // Still served (as admin-only, audited), but say so at start: the route needs a line in the role map.
      if (!hasOperatorRouteRule(method, route.url)) app.log.warn({ method, url: route.url }, 'operator route without a declared role: admin only until operator-route-roles.ts names one');
    }
  });
  app.decorate('operators', operators);
  registerOperatorAccess(app, operators.accounts);
  registerAuditRecorder(app, operators.auditLog);
}
