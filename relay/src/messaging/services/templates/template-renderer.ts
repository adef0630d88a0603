// Handlebars rendering for messages and previews: HTML bodies escape values, subjects, text bodies and
// recipient expressions do not (they are not HTML). Compiled templates are cached by source text, so
// the send path compiles a template once. Own Handlebars environment: no global helpers leak in.
import Handlebars from 'handlebars';
import { AppError } from '../../../errors/catalogue.js';

type Compiled = (context: unknown) => string;

const MAX_CACHED = 2000;

export type RenderedMessage = Readonly<{ subject: string; html: string; text: string | null }>;

export class TemplateRenderer {
  private readonly handlebars = Handlebars.create();
  /**
   * By escaping, then by source text: the source itself is the key (a template's text is the same
   * string on every send of its cached row, and V8 keeps a string's hash), not a new string made
   * from it on every render.
   */
  private readonly cache = { html: new Map<string, Compiled>(), plain: new Map<string, Compiled>() };

  /** Throws template_syntax_invalid when the source does not parse (checked when a template is saved). */
  assertCompiles(source: string, field: string): void {
    try {
      this.handlebars.precompile(source);
    } catch (error) {
      throw new AppError('template_syntax_invalid', {
        message: `The ${field} template does not compile: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
        details: [{ field, message: error instanceof Error ? error.message : String(error) }],
      });
    }
  }

  render(parts: { subject: string; html: string; text: string | null }, data: Record<string, unknown>): RenderedMessage {
    return {
      subject: this.apply(parts.subject, data, false),
      html: this.apply(parts.html, data, true),
      text: parts.text === null ? null : this.apply(parts.text, data, false),
    };
  }

  /** Renders one plain (unescaped) expression, e.g. an event rule's `to`. */
  renderPlain(source: string, context: unknown): string {
    return this.apply(source, context, false);
  }

  private apply(source: string, context: unknown, escapeHtml: boolean): string {
    const cache = escapeHtml ? this.cache.html : this.cache.plain;
    let compiled = cache.get(source);
    if (!compiled) {
      compiled = this.handlebars.compile(source, { noEscape: !escapeHtml });
      if (cache.size >= MAX_CACHED) cache.clear();
      cache.set(source, compiled);
    }
    try {
      return compiled(context);
    } catch (error) {
      // A template that parses but fails at render time (unknown helper, bad block) is the caller's
      // "Invalid template", not a relay fault.
      throw new AppError('invalid_template', { cause: error });
    }
  }
}
