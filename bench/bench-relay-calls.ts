// What the relay benches share to set a relay up over HTTP: a JSON call that states the status it
// expects, and a messaging tenant without limits whose `invoice_ready` template the sends use.
export async function callJson(port: number, token: string, method: string, url: string, body: unknown, expect: number): Promise<any> {
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (response.status !== expect) throw new Error(`${method} ${url} → ${response.status}: ${await response.text()}`);
  return response.json();
}

/** A tenant with no limits, an API key, and the template every bench send renders. */
export async function benchTenant(port: number, operatorToken: string, orgId: number): Promise<{ id: string; apiKey: string }> {
  const unlimited = { burst_per_minute: 1e9, sustained_per_minute: 1e9, daily_quota: 1e9 };
  const { tenant } = await callJson(port, operatorToken, 'POST', '/admin/v1/tenants', { name: `Bench ${orgId}`, org_id: orgId, limits: unlimited }, 201);
  const { api_key } = await callJson(port, operatorToken, 'POST', `/admin/v1/tenants/${tenant.id}/api-keys`, {}, 201);
  await callJson(port, operatorToken, 'POST', `/admin/v1/tenants/${tenant.id}/templates`, {
    event_key: 'invoice_ready',
    channel: 'email',
    subject: 'Invoice {{number}}',
    html: '<p>Hello {{name}}, invoice {{number}} for {{amount}} is ready.</p>',
    text: 'Hello {{name}}, invoice {{number}} for {{amount}} is ready.',
    is_active: true,
  }, 201);
  return { id: tenant.id as string, apiKey: api_key as string };
}

/** A send body with its own transaction id each time. */
export function sendBody(counter: number): string {
  return JSON.stringify({
    channel: 'email',
    to: 'ada@example.com',
    subject: 'Invoice {{number}}',
    event_key: 'invoice_ready',
    transaction_id: `bench-${counter}`,
    data: { name: 'Ada', number: `INV-${counter}`, amount: '120.00' },
  });
}
