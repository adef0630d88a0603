// What can go wrong talking to the books, split by the one question that matters for "never book
// twice": could the request have reached the books? If not, it is safe to send again; if maybe, the
// outcome is unknown and must be checked in the books first.
/** `stopping`: this connector is stopping and sent nothing (it says nothing about the books). */
export type BooksFailureKind = 'not_running' | 'stopping' | 'timeout' | 'connection_lost' | 'bad_answer';

export class BooksRequestError extends Error {
  constructor(
    readonly kind: BooksFailureKind,
    message: string,
    /** True when the books may have received (and acted on) the request. */
    readonly maybeReceived: boolean,
  ) {
    super(message);
    this.name = 'BooksRequestError';
  }
}

export function isBooksNotRunning(error: unknown): boolean {
  return error instanceof BooksRequestError && error.kind === 'not_running';
}

/** Network error codes meaning nothing listens at the books' address (nothing was sent). */
export const NOT_LISTENING_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
