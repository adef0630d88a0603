// The local UI's API: thin handlers, each validating its body and making one call on the service.
import os from 'node:os';
import { z } from 'zod';
import type { ConnectorService } from '../core/service/connector-service.js';
import { diagnosticsText, gatherDiagnostics } from '../core/service/diagnostics.js';
import { logsDir } from '../core/support/log-files.js';

export class UiRequestError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/**
 * `code`: what the software provider gave the shop owner — a customer token, or the setup code of a
 * connect link. (`token` is the same field by its older name.) The relay's address may have come with
 * the installer already; then the form does not ask for it.
 */
const EnrolBody = z
  .object({
    relay_url: z.string().trim().optional(),
    code: z.string().trim().optional(),
    token: z.string().trim().optional(),
    machine_name: z.string().trim().max(200).optional(),
    books_url: z.string().trim().optional(),
  })
  .transform((body) => ({ ...body, code: body.code || body.token || '' }))
  .refine((body) => body.code !== '', { message: 'type or paste the code your software provider gave you' });

const BooksUrlBody = z.object({ books_url: z.string().trim().min(1, "give TallyPrime's address, such as 127.0.0.1:9000 or 192.168.1.20:9000") });
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

export type UiApiHooks = Readonly<{
  /** The local page (or the installer, through `connector stop`) asked the connector to stop. */
  requestStop?: () => void;
}>;

export async function handleUiApi(service: ConnectorService, method: string, pathname: string, body: unknown, hooks: UiApiHooks = {}): Promise<unknown> {
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
      const relayUrl = input.relay_url || service.status().relay.url;
      if (!relayUrl) throw new UiRequestError(400, 'give the relay address your software provider gave you (it starts with https://)');
      return plainly(async () => {
        if (input.books_url) await service.setBooksUrl(input.books_url);
        return service.enrol({ relayUrl, token: input.code, machineName: input.machine_name || os.hostname() });
      });
    }
    case 'POST /api/books-url': {
      const input = parse(BooksUrlBody, body);
      return plainly(async () => {
        await service.setBooksUrl(input.books_url);
        return service.status().books;
      });
    }
    case 'GET /api/diagnostics': {
      const diagnostics = await gatherDiagnostics({
        status: () => service.status(),
        dataDir: service.dataDir,
        logsDir: logsDir(service.dataDir),
        booksBanner: () => service.books.banner(),
        recentLog: (limit) => service.recentLog(limit),
        running: true,
      });
      return { text: diagnosticsText(diagnostics), diagnostics };
    }
    case 'POST /api/stop': {
      if (!hooks.requestStop) throw new UiRequestError(409, 'this connector is run by another program (its window or a test); stop it there');
      // Answered first, then stopped: the answer must leave before the server closes.
      setImmediate(hooks.requestStop);
      return { stopping: true, pid: process.pid };
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
