// Turns whatever a failed call threw into one sentence a person can act on. An API client may attach
// `details` (further sentences, e.g. one per invalid field) to its Error; they follow the message.
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const details = (error as Error & { details?: unknown }).details;
  const extra = Array.isArray(details) ? details.filter((d): d is string => typeof d === 'string' && d !== error.message) : [];
  return [error.message, ...extra].join(' ');
}
