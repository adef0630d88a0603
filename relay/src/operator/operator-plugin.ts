// The operators module: the bootstrap token, operator accounts and the audit log (on the app as
// `app.operators`), the root hooks that authenticate and authorise every /admin/v1 request and write
// the audit log, and the operator routes. Registered before every module that adds /admin/v1 routes.
import fp from 'fastify-plugin';
import { AuditLogRepository } from './store/audit-log-repository.js';
import { registerAuditRecorder } from './admin/audit-recorder.js';
import { ensureInstallationId } from './store/installation.js';
import { registerOperatorAccess } from './admin/operator-access.js';
import { OperatorAccountRepository } from './store/operator-account-repository.js';
import { OperatorAccountService } from './services/operator-account-service.js';
import { hasOperatorRouteRule, isOperatorRoute } from './services/operator-route-roles.js';
import { operatorRoutes } from './admin/operator-routes.js';
import { ensureOperatorToken, type OperatorToken } from './services/operator-token.js';

export type OperatorModule = Readonly<{
  /** The bootstrap operator token (RELAY_ADMIN_TOKEN, or the one generated into DATA_DIR). */
  token: OperatorToken;
  /** This installation's id, the same for every relay on one database. */
  installationId: string;
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

export const operatorPlugin = fp(
  async (app) => {
    const { config, database } = app;
    const token = ensureOperatorToken({ dataDir: config.dataDir, envToken: config.adminToken });
    const routes: Array<{ method: string; url: string }> = [];
    const operators: OperatorModule = Object.freeze({
      token,
      installationId: await ensureInstallationId(database.db),
      accounts: new OperatorAccountService(new OperatorAccountRepository(database.db), token, app.clock.date),
      auditLog: new AuditLogRepository(database.db),
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
    registerAuditRecorder(app, operators.auditLog, app.clock.date);
    await app.register(operatorRoutes, { prefix: '/admin/v1' });
  },
  { name: 'ledgerwire-operators', fastify: '5.x', dependencies: ['ledgerwire-config', 'ledgerwire-clock', 'ledgerwire-database'] },
);
