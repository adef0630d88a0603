// The shape by which a route lets named strings of its JSON body run past the relay's string limit
// (a send's base64 attachments): below both the body reader (http/exact-json-body.ts) that applies it
// and the messaging routes that declare it, so neither imports the other.

/**
 * Strings a route lets be longer than maxStringLength, by path (e.g. a send's base64 attachments):
 * `allows(path)` names them, `max` bounds them. The route's own schema still judges them.
 */
export type LongStrings = Readonly<{ max: number; allows: (path: readonly (string | number)[]) => boolean }>;
