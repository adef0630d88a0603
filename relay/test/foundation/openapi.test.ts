import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startRelay, type TestRelay } from '@ledgerwire/test-kit';

describe('OpenAPI', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startRelay({ database: 'sqlite' });
  });
  afterAll(async () => {
    await relay.close();
  });

  it('serves a valid OpenAPI 3 document at /docs/json generated from the zod schemas', async () => {
    const { body } = await call(relay.app, 'GET', '/docs/json', 200);
    expect(body.openapi).toMatch(/^3\./);
    await SwaggerParser.validate(structuredClone(body));
    expect(body.paths['/api/health'].get.responses['200']).toBeDefined();
    expect(body.paths['/admin/v1/whoami'].get.security).toEqual([{ operatorToken: [] }]);
  });

  it('serves the UI at /docs', async () => {
    const response = await call(relay.app, 'GET', '/docs/', 200);
    expect(response.headers['content-type']).toContain('text/html');
  });
});
