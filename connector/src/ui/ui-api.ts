// The local UI's API: thin handlers, each validating its body and making one call on the service.
import os from 'node:os';
import { z } from 'zod';
import type { ConnectorService } from '../core/service/connector-service.js';

export class UiRequestError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const EnrolBody = z.object({
  relay_url: z.string().trim().min(1, 'give the relay address'),
  token: z.string().trim().min(1, 'paste the customer token'),
  machine_name: z.string().trim().max(200).optional(),
});
const PairBody = z.object({
  company_id: z.coerce.number().int().positive('choose a company'),
  books_company: z.string().min(1, 'choose a company in the books'),
});

const UnpairBody = z.object({
  company_id: z.coerce.number({ error: 'say which company to unpair' }).int('say which company to unpair').positive('say which company to unpair'),
});

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new UiRequestError(400, issue?.message ?? 'the form is not complete');
}

/** What a person's action failed on, in their words (a 409: the request was fine, the situation not). */
async function plainly<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof UiRequestError) throw error;
    throw new UiRequestError(409, error instanceof Error ? error.message : String(error));
  }
}

export async function handleUiApi(service: ConnectorService, method: string, pathname: string, body: unknown): Promise<unknown> {
  const route = `${method} ${pathname}`;
  switch (route) {
    case 'GET /api/status':
      return service.status();
    case 'GET /api/jobs':
      return { jobs: service.recentJobs(50) };
    case 'GET /api/log':
      return { entries: service.recentLog(200) };
    case 'GET /api/companies': {
      const books = await service.booksCompanies();
      let customer: unknown[] = [];
      let problem: string | null = null;
      try {
        customer = service.status().relay.state === 'not_enrolled' ? [] : await service.customerCompanies();
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
      return { books: books.map((c) => ({ guid: c.guid, name: c.name })), customer, problem };
    }
    case 'POST /api/enrol': {
      const input = parse(EnrolBody, body);
      return plainly(() => service.enrol({ relayUrl: input.relay_url, token: input.token, machineName: input.machine_name || os.hostname() }));
    }
    case 'POST /api/pair': {
      const input = parse(PairBody, body);
      return plainly(async () => ({ company: await service.pair(input.company_id, input.books_company) }));
    }
    case 'POST /api/unpair': {
      const input = parse(UnpairBody, body);
      return plainly(async () => {
        await service.unpair(input.company_id);
        return { company_id: input.company_id };
      });
    }
    case 'POST /api/sync-now':
      return plainly(async () => ({ results: await service.sync() }));
    default:
      throw new UiRequestError(404, `no such action: ${route}`);
  }
}
