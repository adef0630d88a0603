// The template row type and the onboarding template's event key, in a file of their own so that
// the repository and its store operations can both use them without importing each other.
import type { Selectable } from 'kysely';
import type { MsgTemplatesTable } from '../../../db/schema.js';

export type TemplateRow = Selectable<MsgTemplatesTable>;

export const TEST_EMAIL_TEMPLATE = 'test_email';
