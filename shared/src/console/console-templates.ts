// Bodies of the template editor's helpers (/admin/v1/console/tenants/{id}/…): sample data that fits a
// draft's variables, and a draft preview that names the variables the sample data lacks.
import { z } from 'zod';
import { TemplatePreviewOut } from '../messaging/template-admin.js';

export const ConsoleTemplateDraftIn = z
  .object({
    subject: z.string().min(1).max(998),
    html: z.string().min(1).max(512 * 1024),
    text: z.string().max(512 * 1024).nullable().optional(),
  })
  .meta({
    id: 'ConsoleTemplateDraftIn',
    examples: [{ subject: 'Order {{order.number}} shipped', html: '<p>Dear {{customer.name}},</p><ul>{{#each items}}<li>{{name}} × {{qty}}</li>{{/each}}</ul>', text: null }],
  });
export type ConsoleTemplateDraftIn = z.infer<typeof ConsoleTemplateDraftIn>;

export const ConsoleTemplateVariableOut = z.object({
  path: z.string().describe('Dotted path from the data’s root, e.g. invoice.number; items[].name inside {{#each items}}'),
  kind: z.enum(['value', 'list', 'section']).describe('value: {{x}}; list: {{#each x}}; section: {{#if x}} / {{#with x}}'),
});
export type ConsoleTemplateVariableOut = z.infer<typeof ConsoleTemplateVariableOut>;

export const ConsoleTemplateSampleOut = z.object({
  success: z.literal(true),
  variables: z.array(ConsoleTemplateVariableOut),
  sample_data: z.record(z.string(), z.unknown()).describe('Data with a made-up value for every variable the draft uses'),
});
export type ConsoleTemplateSampleOut = z.infer<typeof ConsoleTemplateSampleOut>;

export const ConsoleTemplateDraftPreviewOut = TemplatePreviewOut.extend({
  missing_variables: z.array(z.string()).describe('Variables the draft uses that the sample data does not have (they render empty)'),
});
export type ConsoleTemplateDraftPreviewOut = z.infer<typeof ConsoleTemplateDraftPreviewOut>;
